"""Which statements a request's session sends to the read replica (carevault.db.replica
decides whether a request may read there at all; this module only routes its statements).

Apart from carevault.db.replica so that the direct pool (carevault.db.direct), which routes
its reads the same way, needs nothing of the replica's checks: neither imports the other's
caller.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session
from sqlalchemy.sql import Select, visitors

from carevault.db.fastpath import locks_rows

# Session.info key: the replica's (sync) engine, set once the request is switched to it.
READ_BIND = "carevault.read_bind"


def reads_only(clause: Any) -> bool:
    """Whether `clause` can run on a hot standby: a SELECT that locks nothing and has no
    INSERT, UPDATE or DELETE anywhere in it (a data-modifying CTE)."""
    if not isinstance(clause, Select) or locks_rows(clause):
        return False
    return not any(getattr(element, "is_dml", False) for element in visitors.iterate(clause))


class RoutingSession(Session):
    """A session bound to the primary that sends reading statements to `info[READ_BIND]`
    when set (carevault.db.replica's docstring says when a request is switched)."""

    def get_bind(
        self, mapper: Any = None, *, clause: Any = None, bind: Any = None, **kw: Any
    ) -> Any:
        replica = self.info.get(READ_BIND)
        if (
            replica is not None
            and bind is None
            and clause is not None
            and not self._flushing
            and reads_only(clause)
        ):
            return replica
        return super().get_bind(mapper, clause=clause, bind=bind, **kw)
