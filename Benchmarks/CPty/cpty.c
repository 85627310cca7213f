#define _XOPEN_SOURCE 600
#include "cpty.h"
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <unistd.h>

int cpty_open(char *name, size_t length) {
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    if (master < 0) return -1;
    const char *slave = (grantpt(master) == 0 && unlockpt(master) == 0) ? ptsname(master) : NULL;
    if (slave == NULL || strlen(slave) + 1 > length) {
        close(master);
        return -1;
    }
    strcpy(name, slave);
    return master;
}

int cpty_set_window_size(int fd, unsigned short rows, unsigned short columns) {
    struct winsize size = { .ws_row = rows, .ws_col = columns, .ws_xpixel = 0, .ws_ypixel = 0 };
    return ioctl(fd, TIOCSWINSZ, &size);
}
