// The arguments the process was started with, as glibc hands them to the functions of the
// executable's .init_array. The Swift runtime on Linux finds argv by walking back from `environ`,
// and gives up (CommandLine.arguments empty) once a preloaded library's constructor has moved
// `environ` off the stack with setenv, as libfaketime's does.
#ifndef STATEDECK_LAUNCH_ARGUMENTS_H
#define STATEDECK_LAUNCH_ARGUMENTS_H

/// argc as glibc passed it to the executable's initializers; 0 when none was passed (another C
/// library).
int statedeck_launch_argc(void);

/// argv as glibc passed it to the executable's initializers: argc strings, then NULL. NULL when
/// none was passed (another C library).
char *const *statedeck_launch_argv(void);

#endif
