"""An import as its owner follows it: pending, then the game or the reason it failed."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.utils.translation import gettext_noop

from ..errors import GameError
from ..models import ImportJob

if TYPE_CHECKING:
    from accounts.models import User


def import_answer(job: ImportJob) -> dict[str, Any]:
    """``{"id", "status", "game", "error"}``; the error's message in the reader's language."""
    error = None
    if job.error:
        found = GameError(job.error["code"], job.error["template"], **job.error["params"])
        error = {"code": found.code, "message": found.message}
    return {"id": job.pk, "status": job.status, "game": job.game_id, "error": error}


def import_job(*, user: User, job_id: int) -> dict[str, Any]:
    """The caller's own import (anyone else's is not found); its export is not read."""
    job = ImportJob.objects.filter(pk=job_id, user_id=user.pk).defer("data").first()
    if job is None:
        raise GameError("not_found", gettext_noop("There is no such import."), status=404)
    return import_answer(job)
