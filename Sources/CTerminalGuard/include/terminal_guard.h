#ifndef EDUGO_TERMINAL_GUARD_H
#define EDUGO_TERMINAL_GUARD_H

#include <stddef.h>
#include <termios.h>

// Best effort for fatal errors (a Swift trap, a bad pointer): before the process dies, the
// terminal gets back its modes and leaves the alternate screen, then the signal goes on to
// whoever handled it before (the Swift runtime's backtrace) or its default action.
void edugo_guard_arm(const char *sequence, size_t length, const struct termios *modes);
void edugo_guard_disarm(void);

#endif
