#include "terminal_guard.h"

#include <signal.h>
#include <string.h>
#include <unistd.h>

// A signal handler can reach nothing but static storage: what to write, and the modes to
// restore, copied here once when the terminal is set up.
static char guard_sequence[512];
static size_t guard_length;
static struct termios guard_modes;
static volatile sig_atomic_t guard_armed;
static struct sigaction guard_previous[NSIG];
static const int guard_signals[] = { SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE };

static void guard_handler(int signal_number, siginfo_t *info, void *context) {
    if (guard_armed) {
        guard_armed = 0;
        ssize_t ignored = write(STDOUT_FILENO, guard_sequence, guard_length);
        (void)ignored;
        tcsetattr(STDIN_FILENO, TCSANOW, &guard_modes);
    }
    struct sigaction *previous = &guard_previous[signal_number];
    if ((previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction != NULL) {
        previous->sa_sigaction(signal_number, info, context);
        return;
    }
    if (!(previous->sa_flags & SA_SIGINFO) && previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(signal_number);
        return;
    }
    signal(signal_number, SIG_DFL);
    raise(signal_number);
}

void edugo_guard_arm(const char *sequence, size_t length, const struct termios *modes) {
    if (length > sizeof(guard_sequence)) { length = sizeof(guard_sequence); }
    memcpy(guard_sequence, sequence, length);
    guard_length = length;
    guard_modes = *modes;
    struct sigaction action;
    memset(&action, 0, sizeof(action));
    action.sa_sigaction = guard_handler;
    action.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&action.sa_mask);
    for (size_t index = 0; index < sizeof(guard_signals) / sizeof(guard_signals[0]); index++) {
        sigaction(guard_signals[index], &action, &guard_previous[guard_signals[index]]);
    }
    guard_armed = 1;
}

void edugo_guard_disarm(void) {
    guard_armed = 0;
}
