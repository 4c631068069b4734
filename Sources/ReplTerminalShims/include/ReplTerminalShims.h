#ifndef REPL_TERMINAL_SHIMS_H
#define REPL_TERMINAL_SHIMS_H

#include <termios.h>

/// Remembers `original` as the settings of terminal `fd` and installs
/// handlers for SIGTERM, SIGHUP and SIGQUIT that put them back, then let
/// the process die of the signal as it would have (the default action is
/// restored and the signal raised again, so the exit status still names
/// it). Everything a handler calls (tcsetattr, sigaction, raise) is
/// async-signal-safe; the saved settings are written once, here, before
/// any handler is installed, and only read by the handlers after that.
void repl_restore_terminal_on_termination(int fd, const struct termios *original);

#endif
