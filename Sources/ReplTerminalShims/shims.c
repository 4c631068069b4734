#include "ReplTerminalShims.h"

#include <signal.h>
#include <string.h>

static int saved_fd = -1;
static struct termios saved_settings;

static void restore_and_die(int signal_number) {
    if (saved_fd >= 0) tcsetattr(saved_fd, TCSAFLUSH, &saved_settings);
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal_number, &fallback, NULL);
    raise(signal_number);
}

void repl_restore_terminal_on_termination(int fd, const struct termios *original) {
    saved_settings = *original;
    saved_fd = fd;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = restore_and_die;
    sigemptyset(&action.sa_mask);
    int signals[] = {SIGTERM, SIGHUP, SIGQUIT};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) sigaction(signals[i], &action, NULL);
}
