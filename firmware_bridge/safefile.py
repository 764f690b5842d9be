"""Reading the command line's JSON files and writing its outputs so that bad input is one line naming the file.

`read_json` turns every way a file can fail to be JSON (not UTF-8, nested past the parser's recursion limit, an
integer of thousands of digits, NaN or Infinity, too big to be a parameter or pairing file) into one `FileProblem`
"path: problem" line. `write_output` writes through a temporary file in the same folder renamed over the target, so a
failed write leaves no partial file and the user's old file as it was; a device such as /dev/full is written in
place, since renaming over it would replace the device.
"""

from __future__ import annotations

import errno
import json
import math
import os
import stat
import tempfile
from collections.abc import Callable
from typing import IO, Any

#: JSON files the command line reads are parameter, pairing, status and sidecar files: kilobytes. A bound keeps a
#: mistaken 2 GB file from being read whole.
MAX_JSON_BYTES = 64 * 1024 * 1024


class FileProblem(ValueError):
    """Bad input in a named file; str() is the one-line message and `exit_status` says 2 (input) or 1 (machine)."""

    def __init__(self, message: str, exit_status: int = 2) -> None:
        super().__init__(message)
        self.exit_status = exit_status


def brief(value: object, limit: int = 40) -> str:
    """A value for a one-line message: its repr, cut to `limit` characters with its length said."""
    text = repr(value)
    if len(text) <= limit and "\n" not in text:
        return text
    return f"{text[:limit].splitlines()[0] if text[:limit].strip() else ''}... ({len(text)} characters)"


def _refuse_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number JSON allows")


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(f"{text[:20]} is out of range")
    return value


def loads(text: str, where: str) -> Any:
    """Parse JSON text; FileProblem "where: problem" for anything the parser refuses or cannot take."""
    try:
        return json.loads(text, parse_constant=_refuse_constant, parse_float=_parse_float)
    except json.JSONDecodeError as exc:
        raise FileProblem(f"{where}: line {exc.lineno}: not JSON: {exc.msg} (column {exc.colno})") from None
    except RecursionError:
        raise FileProblem(f"{where}: not JSON this program reads: nested too deep") from None
    except ValueError as exc:  # NaN/Infinity, 1e400, an integer past Python's 4300 digits
        problem = str(exc).split(";")[0].split(" for integer")[0]
        raise FileProblem(f"{where}: not JSON this program reads: {problem}") from None


def read_json(path: str | os.PathLike[str]) -> Any:
    """Read and parse a JSON file; FileProblem naming it: missing or unreadable (exit 1 for an I/O fault), not
    UTF-8 (with the byte offset), too big, or not JSON."""
    where = os.fspath(path)
    try:
        with open(where, "rb") as fh:
            data = fh.read(MAX_JSON_BYTES + 1)
    except FileNotFoundError:
        raise FileProblem(f"{where}: no such file") from None
    except IsADirectoryError:
        raise FileProblem(f"{where}: is a folder, not a file") from None
    except OSError as exc:
        status = 2 if exc.errno in (errno.EACCES, errno.ENOTDIR) else 1
        raise FileProblem(f"{where}: cannot read: {exc.strerror or exc}", status) from None
    if len(data) > MAX_JSON_BYTES:
        raise FileProblem(f"{where}: more than {MAX_JSON_BYTES // (1024 * 1024)} MB, not a file this program wrote")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise FileProblem(f"{where}: not UTF-8 text (byte {exc.start})") from None
    return loads(text.lstrip("\ufeff"), where)


def check_output(path: str, suffixes: tuple[str, ...] = ()) -> None:
    """Refuse an output path before any work is done: FileProblem (exit 2) for a folder, a missing folder, a wrong
    suffix; exit 1 for a read-only file or folder."""
    if suffixes and not path.lower().endswith(suffixes):
        raise FileProblem(f"{path}: the output must end in {' or '.join(suffixes)}")
    try:
        st = os.stat(path)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise FileProblem(f"{path}: cannot write: {exc.strerror or exc}") from None
    if st is not None and stat.S_ISDIR(st.st_mode):
        raise FileProblem(f"{path}: is a folder; give a file name")
    if st is not None and stat.S_ISREG(st.st_mode) and not st.st_mode & 0o222:
        raise FileProblem(f"{path}: cannot write: the file is read-only", 1)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise FileProblem(f"{path}: cannot write: no folder {folder}")
    if st is None or stat.S_ISREG(st.st_mode):
        if not os.access(folder, os.W_OK):
            raise FileProblem(f"{path}: cannot write: the folder is read-only", 1)


def write_output(path: str, write: Callable[[IO[bytes]], object]) -> None:
    """Call `write(fh)` on a temporary file beside `path`, then rename it over `path`; on any failure remove the
    temporary file and raise FileProblem (exit 1: the machine failed, exit 2: the path is wrong). A path that is a
    device (not a regular file) is written in place."""
    check_output(path)
    try:
        st: os.stat_result | None = os.stat(path)
    except OSError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        try:
            with open(path, "wb") as fh:
                write(fh)
        except OSError as exc:
            raise FileProblem(f"{path}: cannot write: {exc.strerror or exc}", 1) from None
        return
    folder = os.path.dirname(os.path.abspath(path))
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            write(fh)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, (st.st_mode & 0o7777) if st is not None else 0o666 & ~_umask())
        os.replace(tmp, path)
        tmp = None
    except OSError as exc:
        raise FileProblem(f"{path}: cannot write: {exc.strerror or exc}", 1) from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
