#include "CLaunchArguments.h"

// Defines __GLIBC__ under glibc.
#include <stdlib.h>

static int launchArgc;
static char *const *launchArgv;

#if defined(__GLIBC__)
/// Keeps the argc and argv glibc passes every function of the executable's .init_array: the
/// kernel's own, on the stack, wherever `environ` has moved before main.
static void saveLaunchArguments(int argc, char **argv, char **envp) {
    (void)envp;
    launchArgc = argc;
    launchArgv = argv;
}

__attribute__((section(".init_array"), used))
static void (*const saveLaunchArgumentsAtStart)(int, char **, char **) = saveLaunchArguments;
#endif

int statedeck_launch_argc(void) {
    return launchArgc;
}

char *const *statedeck_launch_argv(void) {
    return launchArgv;
}
