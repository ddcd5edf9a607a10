"""The servers the benchmarks start: a free port on loopback for each, and a child process
that ends with the benchmark, however the benchmark ends."""

import ctypes
import signal
import socket


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def die_with_parent() -> None:
    """In the child (`preexec_fn`): get SIGTERM when the benchmark exits."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG
