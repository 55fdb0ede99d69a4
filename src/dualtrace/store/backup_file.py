"""Backup files, whichever backend writes them: the target's checks, a temporary file beside
it, and the rename that publishes it only once it is complete (a crash leaves at most a
stray `.…backup-tmp` file, never a half backup under the final name)."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

from dualtrace.errors import StoreError, ValidationError

TEMP_SUFFIX = ".backup-tmp"
# SQLite's files beside a store: writing over one of them loses or corrupts the store
STORE_SIBLINGS = ("", "-wal", "-shm", "-journal")


def store_file_named(target: Path, own_file: Path) -> str | None:
    """Which of the store's files `target` names (links resolved): "" for the store file
    itself, "-wal", "-shm" or "-journal" for a sibling; None for none of them."""
    resolved = target.resolve()
    own = own_file.resolve()
    for suffix in STORE_SIBLINGS:
        sibling = own.with_name(own.name + suffix)
        if resolved == sibling or (
            resolved.exists() and sibling.exists() and resolved.samefile(sibling)
        ):
            return suffix
    return None


def refuse_store_file(target: Path, own_file: Path | None, action: str) -> None:
    """Refuses `target` if writing it would overwrite the store `own_file` or one of the
    files SQLite keeps beside it (`action` names the command, e.g. "back up")."""
    suffix = None if own_file is None else store_file_named(target, own_file)
    if suffix is None:
        return
    what = "the store's own file" if not suffix else f"the store's SQLite {suffix} file"
    raise ValidationError(
        f"cannot {action} to {str(target)!r}: it is {what}, and writing it would destroy "
        f"the store's data; nothing was written. Choose another path (not {str(own_file)!r} "
        "nor its -wal, -shm or -journal file)"
    )


def checked_target(target: Path, overwrite: bool, own_file: Path | None = None) -> Path:
    """`target` if a backup may be written there: refuses a folder that does not exist, a
    folder as the target, the store's own file, and an existing file unless `overwrite`."""
    folder = target.parent
    if not folder.is_dir():
        raise ValidationError(
            f"cannot back up to {str(target)!r}: the folder {str(folder)!r} does not "
            f"exist; create it first (mkdir -p {folder}) or choose a path in an existing folder"
        )
    if target.is_dir():
        raise ValidationError(
            f"cannot back up to {str(target)!r}: it is a folder; name a file in it, e.g. "
            f"{str(target / 'memory-backup.db')!r}"
        )
    refuse_store_file(target, own_file, "back up")
    if target.exists() and not overwrite:
        raise exists_error(target)
    return target


def exists_error(target: Path) -> ValidationError:
    return ValidationError(
        f"cannot back up to {str(target)!r}: the file exists; pass overwrite=True "
        "(`dualtrace backup --force`) to replace it, or choose a new path"
    )


def temp_file(target: Path) -> Path:
    """An empty file beside `target` (same folder, so the final rename is atomic)."""
    try:
        handle, name = tempfile.mkstemp(
            prefix=f".{target.name}.", suffix=TEMP_SUFFIX, dir=target.parent
        )
    except OSError as exc:
        raise StoreError(
            f"cannot write a backup in {str(target.parent)!r} ({exc}); make the folder "
            "writable by this user, or choose another path"
        ) from exc
    os.close(handle)
    return Path(name)


def flush(file: Path) -> None:
    """Force the copy's bytes to disk before it is renamed into place."""
    handle = os.open(file, os.O_RDONLY)
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def publish(temp: Path, target: Path, overwrite: bool) -> None:
    """Rename the finished copy to `target`. Without `overwrite`, a hard link makes the
    existence check and the rename one step (a file that appeared since is kept)."""
    if overwrite:
        os.replace(temp, target)
        return
    try:
        os.link(temp, target)
    except FileExistsError:
        raise exists_error(target) from None
    except OSError:  # a file system without hard links: check, then rename
        if target.exists():
            raise exists_error(target) from None
        os.replace(temp, target)
        return
    temp.unlink()
