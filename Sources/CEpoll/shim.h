// Linux's epoll and eventfd, which Glibc's Swift module does not bring: the TCP probe loop waits
// on one epoll set for every connection under way, woken by an eventfd for new work.
#ifndef STATEDECK_EPOLL_SHIM_H
#define STATEDECK_EPOLL_SHIM_H

#include <sys/epoll.h>
#include <sys/eventfd.h>

#endif
