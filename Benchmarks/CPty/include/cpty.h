#ifndef CPTY_H
#define CPTY_H

#include <stddef.h>

/// Opens a pseudo-terminal's master side and writes the slave's path into `name`; returns the
/// master descriptor or -1. (posix_openpt and friends need _XOPEN_SOURCE, which Swift's Glibc
/// module does not define.)
int cpty_open(char *name, size_t length);

/// Sets a pseudo-terminal's size: ioctl is variadic, so Swift cannot call it directly.
int cpty_set_window_size(int fd, unsigned short rows, unsigned short columns);

#endif
