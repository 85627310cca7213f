#ifndef EDUGO_CNCURSES_SHIM_H
#define EDUGO_CNCURSES_SHIM_H

// The wide-character API of ncursesw is only declared with these defines; SwiftPM drops the
// -D flags pkg-config would add, so the shim sets them itself.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>
#include <ncursesw/curses.h>
#include <errno.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <unistd.h>

// C globals are not concurrency-safe in Swift 6; read them through accessors instead.
static inline WINDOW *edugo_stdscr(void) { return stdscr; }
static inline int edugo_lines(void) { return LINES; }
static inline int edugo_cols(void) { return COLS; }
static inline int edugo_color_pairs(void) { return COLOR_PAIRS; }
static inline int edugo_colors(void) { return COLORS; }

// Attribute macros built with NCURSES_BITS do not import into Swift.
static inline attr_t edugo_a_bold(void) { return A_BOLD; }
static inline attr_t edugo_a_reverse(void) { return A_REVERSE; }
static inline attr_t edugo_a_underline(void) { return A_UNDERLINE; }
static inline attr_t edugo_a_dim(void) { return A_DIM; }
static inline attr_t edugo_a_italic(void) { return A_ITALIC; }
static inline attr_t edugo_color_pair(short pair) { return (attr_t)COLOR_PAIR(pair); }

// Mouse button masks are function-like macros, which do not import either.
static inline mmask_t edugo_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t edugo_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t edugo_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t edugo_button5_pressed(void) { return BUTTON5_PRESSED; }

// wcwidth is hidden from Swift's Glibc module (it needs _XOPEN_SOURCE).
extern int wcwidth(wchar_t c);

// Ctrl-C interrupts (SIGINT) even while the app is busy, instead of arriving as a key that
// waits its turn; Ctrl-\ and Ctrl-Z stay plain keys, so nothing stops the app half-drawn.
static inline int edugo_enable_interrupt_key(int fd) {
    struct termios modes;
    if (tcgetattr(fd, &modes) != 0) { return -1; }
    modes.c_lflag |= ISIG;
    modes.c_cc[VINTR] = 3;
    modes.c_cc[VQUIT] = _POSIX_VDISABLE;
    modes.c_cc[VSUSP] = _POSIX_VDISABLE;
    return tcsetattr(fd, TCSANOW, &modes);
}

// The terminal size as the kernel reports it, for resizing after SIGWINCH.
static inline int edugo_window_size(int fd, int *rows, int *cols) {
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) != 0) { return -1; }
    *rows = ws.ws_row;
    *cols = ws.ws_col;
    return 0;
}

// OSC 8 hyperlinks over cells ncurses has drawn: ncurses has no notion of them, so after a
// frame is sent the cells are printed again, the same characters in the same attributes,
// between an OSC 8 opening and its close. The terminal's attributes and cursor end as ncurses
// believes them: its attributes are set to normal (and told to the terminal) first, DECSC
// saves that and the cursor, DECRC brings both back at the end. Written to stdout's stream
// (a global a header cannot keep for vid_puts' callback); flush it after.
static inline int edugo_link_putc(int c) { return putc(c, stdout); }

static inline void edugo_write_link(WINDOW *window, int y, int x, int width, const char *address) {
    FILE *output = stdout;
    int saved_y, saved_x;
    getyx(window, saved_y, saved_x);
    vid_puts(A_NORMAL, 0, NULL, edugo_link_putc);
    fputs("\0337", output);
    fprintf(output, "\033[%d;%dH\033]8;;%s\033\\", y + 1, x + 1, address);
    for (int column = x; column < x + width;) {
        cchar_t cell;
        wchar_t text[CCHARW_MAX + 1];
        attr_t attributes;
        short pair;
        if (mvwin_wch(window, y, column, &cell) == ERR || getcchar(&cell, text, &attributes, &pair, NULL) == ERR) { break; }
        vid_puts(attributes, pair, NULL, edugo_link_putc);
        for (wchar_t *scalar = text; *scalar != 0; ++scalar) {
            char bytes[MB_LEN_MAX];
            mbstate_t state;
            memset(&state, 0, sizeof state);
            size_t count = wcrtomb(bytes, *scalar, &state);
            if (count != (size_t)-1) { fwrite(bytes, 1, count, output); }
        }
        int cells = text[0] != 0 ? wcwidth(text[0]) : 1;
        column += cells > 0 ? cells : 1;
    }
    vid_puts(A_NORMAL, 0, NULL, edugo_link_putc);
    fputs("\033]8;;\033\\\0338", output);
    wmove(window, saved_y, saved_x);
}

static inline void edugo_flush_links(void) { fflush(stdout); }

// Frame marks (EDUGO_FRAME_MARKS, for the end-to-end tests): an OSC 7 working directory that
// says whether a frame is half sent. ncurses sends a frame in many writes (one per row it
// moves to, here), and a terminal shows each as it comes; tmux reports the mark as
// #{pane_path}, read in the same command as the screen, so a reader can tell a whole frame
// from a torn one. Both go straight to the descriptor: ncurses' buffer is empty between
// frames (it flushes at the end of doupdate, and its other output flushes at once), and the
// frame's links, written on stdout's stream, are flushed before the end mark.
static inline void edugo_mark_frame(int whole) {
    static const char drawing[] = "\033]7;edugo-drawing\007";
    static const char drawn[] = "\033]7;edugo-drawn\007";
    const char *mark = whole ? drawn : drawing;
    size_t length = whole ? sizeof drawn - 1 : sizeof drawing - 1;
    while (length > 0) {
        ssize_t written = write(STDOUT_FILENO, mark, length);
        if (written < 0 && errno == EINTR) { continue; }
        if (written <= 0) { return; }
        mark += written;
        length -= (size_t)written;
    }
}

#endif
