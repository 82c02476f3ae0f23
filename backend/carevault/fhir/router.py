"""/fhir/R4: FHIR R4 interactions over CareVault's services.

Each route is declared like its REST twin (carevault.auth.permissions) and calls the same
service function, so chart access, care teams, token scopes and the audit trail decide
alike; this module parses FHIR requests, calls, and maps the answer (carevault.fhir.mapping).
Tokens created with SMART scopes are also held to them per resource type (`_smart`). The
routes are left out of the OpenAPI document (FHIR has its own: `GET /fhir/R4/metadata`).
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime, timedelta
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import Response
from pydantic import ValidationError

from carevault.api import conditional
from carevault.api.dependencies import DatabaseRoute, DbSession, State
from carevault.api.errors import ApiError
from carevault.api.fhir_search import (
    PAGING,
    Bound,
    Params,
    decode_cursor,
    form_items,
    next_link,
    self_link,
)
from carevault.appointments import service as appointments_service
from carevault.appointments.models import Appointment
from carevault.appointments.schemas import AppointmentCreate, AppointmentUpdate
from carevault.audit import service as audit_service
from carevault.auth import service as auth_service
from carevault.auth.dependencies import CurrentOwner, CurrentPrincipal
from carevault.auth.permissions import PUBLIC, Operation, changes, declare, reads
from carevault.auth.principal import Principal
from carevault.auth.scopes import smart_scopes_held
from carevault.clients import service as clients_service
from carevault.clients.models import Client
from carevault.clients.schemas import ClientCreate, ClientUpdate
from carevault.core.errors import NotFound
from carevault.core.paging import Pagination
from carevault.fhir import capability, mapping
from carevault.notes import service as notes_service
from carevault.notes.models import NoteStatus
from carevault.workspaces import service as workspaces_service

PREFIX = "/fhir/R4"
router = APIRouter(prefix=PREFIX, include_in_schema=False, route_class=DatabaseRoute)
# A search whose filters CareVault's services cannot apply is filtered here, over at most
# this many candidates (a broader search is refused as too costly rather than run).
MAX_FILTERED = 1000
MAX_IDS = 100
FORM_MEDIA_TYPE = "application/x-www-form-urlencoded"
ONE_DAY = timedelta(days=1)
# Search parameters that are PHI: after a POST `_search` they stay out of the next link.
PHI_PARAMETERS = ("email", "phone", "telecom", "name", "family", "given", "birthdate")

# No CareVault resource: any credential reads staff and the practice (names, roles).
READS_DIRECTORY = Operation(())


def fhir_response(
    body: dict[str, Any], status: int = 200, headers: dict[str, str] | None = None
) -> Response:
    return Response(
        json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode(),
        status_code=status,
        media_type=mapping.MEDIA_TYPE,
        headers=headers,
    )


def base_url(request: Request) -> str:
    return f"{str(request.base_url).rstrip('/')}{PREFIX}"


def _resource_response(resource: dict[str, Any], status: int = 200, **extra: str) -> Response:
    headers = dict(extra)
    meta = resource.get("meta") or {}
    if meta.get("versionId"):
        headers["ETag"] = mapping.weak_etag(meta["versionId"])
    return fhir_response(resource, status, headers)


def _smart(principal: Principal, resource_type: str, permission: str) -> None:
    """A token created with SMART scopes needs one granting `permission` (a letter of
    cruds) on `resource_type`: finer than the CareVault scope the route declares."""
    if principal.token_scopes is None:
        return
    held = smart_scopes_held(principal.token_scopes)
    if held and not any(scope.allows(resource_type, permission) for scope in held):
        needed = f"{held[0].context}/{resource_type}.{permission}"
        raise ApiError(
            403,
            "insufficient_scope",
            f"this API token's SMART scopes do not allow {needed}",
            details={"required_scope": needed, "required_scopes": [needed]},
        )


def _record_id(text: str, what: str) -> uuid.UUID:
    """A FHIR id of this server (a uuid); any other is a 404, as an unknown record."""
    try:
        return uuid.UUID(text)
    except ValueError:
        raise NotFound("not_found", f"{what} not found") from None


def _read_params(request: Request) -> None:
    Params(request.query_params.multi_items(), ())


async def _body(request: Request) -> dict[str, Any]:
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media not in ("application/fhir+json", "application/json"):
        raise ApiError(415, "unsupported_media_type", "send application/fhir+json")
    try:
        body = json.loads(await request.body())
    except (ValueError, UnicodeDecodeError):
        raise ApiError(400, "bad_request", "the request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise ApiError(400, "bad_request", "the request body is not a FHIR resource")
    return body


def _mapped(build: Callable[[dict[str, Any]], dict[str, Any]], body: dict[str, Any]) -> Any:
    try:
        return build(body)
    except mapping.MappingError as wrong:
        raise ApiError(
            422, "validation_error", wrong.message, details=[{"field": wrong.field}]
        ) from None


def _validated(model: Any, fields: dict[str, Any], resource_type: str) -> Any:
    """The REST schema's own validation of what the FHIR body says (the same rules)."""
    try:
        return model.model_validate(fields)
    except ValidationError as invalid:
        problems = [
            {"field": f"{resource_type}.{'.'.join(str(p) for p in e['loc'])}", "message": e["msg"]}
            for e in invalid.errors(include_input=False)
        ]
        raise ApiError(
            422, "validation_error", "the resource is not valid", details=problems
        ) from None


async def _require_version(
    request: Request, db: DbSession, principal: Principal, model: Any, record_id: uuid.UUID
) -> None:
    """`If-Match: W/"<versionId>"` (or the REST `ETag`, the same version): 412 unless it names
    the current version. The row is locked from this check until the change commits, so a
    concurrent change is either seen here (412) or waits for this one. A record the caller
    cannot see is left to the service's 404."""
    if "if-match" not in request.headers:
        return
    current = await conditional.current_etag(db, principal, model, record_id, lock=True)
    if current is not None:
        _check_version(request, conditional.opaque(current))


def _check_version(request: Request, current: str) -> None:
    """`If-Match: W/"<versionId>"`: 412 unless it names the current version."""
    given = request.headers.get("if-match")
    if given is None:
        return
    versions = [conditional.opaque(tag.strip()) for tag in given.split(",") if tag.strip()]
    if current not in versions and "*" not in versions:
        raise ApiError(
            412,
            "version_conflict",
            "If-Match names a version that is no longer current; read the resource again",
            details={"current_version": current},
        )


def _if_none_exist(request: Request) -> list[tuple[str, str]] | None:
    header = request.headers.get("if-none-exist")
    if header is None:
        return None
    items = form_items(header.removeprefix("?").encode())
    if not items:
        raise ApiError(400, "bad_request", "If-None-Exist holds a search, e.g. identifier=…")
    return items


def _conditional_answer(found: list[dict[str, Any]]) -> Response | None:
    """A conditional create's answer when the search found something: the match (200), or
    412 for more than one; None when nothing matched (create)."""
    if not found:
        return None
    if len(found) > 1:
        raise ApiError(
            412, "multiple_matches", "If-None-Exist matched more than one resource; be precise"
        )
    return _resource_response(found[0])


def _vread(resource: dict[str, Any], version_id: str, what: str) -> Response:
    if resource["meta"]["versionId"] != version_id:
        raise NotFound(
            "version_not_found",
            f"{what} keeps its current version only; that version is not it",
        )
    return _resource_response(resource)


def _current_history(request: Request, resource: dict[str, Any]) -> Response:
    base = base_url(request)
    url = f"{base}/{resource['resourceType']}/{resource['id']}/_history"
    return fhir_response(mapping.history([resource], base, self_url=url, total=1))


def _bundle(
    request: Request,
    params: Params,
    path: str,
    resource_type: str,
    entries: Sequence[dict[str, Any]],
    page: int,
    count: int,
    total: int | None,
    *,
    form: Sequence[str] = (),
    more: bool | None = None,
) -> Response:
    base = base_url(request)
    has_more = more if more is not None else (total is not None and page * count < total)
    following = (
        next_link(base, path, params, resource_type, page + 1, form=form) if has_more else None
    )
    return fhir_response(
        mapping.searchset(
            entries,
            base,
            self_url=self_link(base, path, params, form=form),
            next_url=following,
            total=total,
        )
    )


def _page_of(items: Sequence[Any], page: int, count: int) -> list[Any]:
    return list(items[(page - 1) * count : page * count])


def _refuse_too_broad(total: int) -> None:
    if total > MAX_FILTERED:
        raise ApiError(
            400,
            "too_costly",
            f"this search filters more than {MAX_FILTERED} candidates; add a narrower "
            "parameter (a name, an identifier, a patient)",
        )


def _ids(params: Params) -> list[uuid.UUID] | None:
    """`_id` (comma-separated ids): None when absent; unknown ids simply match nothing."""
    raw = params.all("_id")
    if not raw:
        return None
    found = []
    for text in ",".join(raw).split(","):
        try:
            found.append(uuid.UUID(text.strip()))
        except ValueError:
            continue
    if len(found) > MAX_IDS:
        # Each id is a chart read of its own (audited as such): a bounded number per request.
        raise ApiError(400, "too_costly", f"_id names at most {MAX_IDS} resources")
    return found


def _reference_ids(params: Params, name: str, resource_type: str) -> list[uuid.UUID] | None:
    """`patient=Patient/x` or `patient=x` (comma-separated); None when absent."""
    raw = params.all(name)
    if not raw:
        return None
    found = []
    for text in ",".join(raw).split(","):
        tail = text.strip().rsplit("/", 1)
        if len(tail) == 2 and not tail[0].endswith(resource_type):
            raise ApiError(400, "bad_request", f"{name} refers to a {resource_type}")
        try:
            found.append(uuid.UUID(tail[-1]))
        except ValueError:
            continue
    return found


# --- capability, SMART configuration, the catch-all --------------------------------------------


@router.get("/metadata")
@declare(PUBLIC)
async def capability_statement(request: Request) -> Response:
    """The CapabilityStatement: exactly what this server does (carevault.fhir.capability)."""
    _read_params(request)
    return fhir_response(capability.statement(base_url(request)))


@router.get("/.well-known/smart-configuration")
@declare(PUBLIC)
async def smart_configuration(request: Request) -> Response:
    """What a SMART client needs to know: the scopes CareVault grants, and that tokens are
    created in CareVault (the OAuth endpoints come next: docs/reference/fhir.md)."""
    return Response(
        json.dumps(capability.smart_configuration(base_url(request))),
        media_type="application/json",
    )


# --- Patient -----------------------------------------------------------------------------------

PATIENT_SEARCH = frozenset(
    {"_id", "identifier", "family", "given", "name", "birthdate", "email", "phone", "telecom"}
    | {"_lastUpdated", "active"}
    | PAGING
)


async def _read_patient(db: DbSession, principal: Principal, text: str) -> dict[str, Any]:
    client = await clients_service.read_client(db, principal, _record_id(text, "client"))
    return mapping.patient(client)


@router.get("/Patient/{patient_id}")
@declare(reads("clients"))
async def read_patient(
    request: Request, patient_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "Patient", "r")
    return _resource_response(await _read_patient(db, principal, patient_id))


@router.get("/Patient/{patient_id}/_history/{version_id}")
@declare(reads("clients"))
async def vread_patient(
    request: Request, patient_id: str, version_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "Patient", "r")
    return _vread(await _read_patient(db, principal, patient_id), version_id, "a client")


@router.get("/Patient/{patient_id}/_history")
@declare(reads("clients"))
async def patient_history(
    request: Request, patient_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "Patient", "r")
    return _current_history(request, await _read_patient(db, principal, patient_id))


ExternalFinder = Callable[[str], Awaitable[uuid.UUID | None]]


async def _identifier_ids(
    params: Params, find_external: ExternalFinder, own_system: str | None
) -> list[uuid.UUID] | None:
    """`identifier=[system|]value` (comma-separated): the records it names. CareVault's own
    id (system `own_system`) is the record's uuid; the integrator's `external_id` (system
    EXTERNAL_ID_SYSTEM) is found through its blind index (`find_external`, exact, reading
    no PHI; the caller then reads each record with chart access). Without a system, both."""
    raw = params.all("identifier")
    if not raw:
        return None
    found: list[uuid.UUID] = []
    for text in ",".join(raw).split(","):
        system, bar, value = text.strip().rpartition("|")
        if not value:
            continue
        if (not bar or not system or system == own_system) and own_system is not None:
            with contextlib.suppress(ValueError):
                found.append(uuid.UUID(value))
        if not bar or not system or system == mapping.EXTERNAL_ID_SYSTEM:
            record_id = await find_external(value)
            if record_id is not None:
                found.append(record_id)
    if len(found) > MAX_IDS:
        raise ApiError(400, "too_costly", f"identifier names at most {MAX_IDS} resources")
    return list(dict.fromkeys(found))


def _folded_contains(value: str | None, needle: str) -> bool:
    from carevault.clients.listing import folded

    return value is not None and folded(needle) in folded(value)


def _contains(attribute: Callable[[Any], str], needle: str) -> Callable[[Any], bool]:
    return lambda candidate: _folded_contains(attribute(candidate), needle)


def _dated(attribute: Callable[[Any], Any], bound: Bound) -> Callable[[Any], bool]:
    def check(candidate: Any) -> bool:
        value = attribute(candidate)
        return value is not None and bound.accepts(value)

    return check


def _patient_filter(params: Params) -> Callable[[Any], bool] | None:
    """What the client services do not filter on, checked on each candidate."""
    checks: list[Callable[[Any], bool]] = []
    checks += [_contains(lambda c: c.last_name, value) for value in params.all("family")]
    checks += [_contains(lambda c: c.first_name, value) for value in params.all("given")]
    checks += [
        _contains(lambda c: f"{c.first_name} {c.last_name}", value) for value in params.all("name")
    ]
    checks += [_dated(lambda c: c.date_of_birth, b) for b in params.bounds("birthdate")]
    checks += [_dated(lambda c: c.updated_at, b) for b in params.bounds("_lastUpdated")]
    active = params.one("active")
    if active is not None:
        if active not in ("true", "false"):
            raise ApiError(400, "bad_request", "active is true or false")
        checks.append(lambda c: (c.archived_at is None) == (active == "true"))
    if not checks:
        return None
    return lambda candidate: all(check(candidate) for check in checks)


async def _search_patients(
    request: Request,
    params: Params,
    principal: Principal,
    db: DbSession,
    state: Any,
    *,
    form: Sequence[str] = (),
    path: str = "Patient",
) -> tuple[list[dict[str, Any]], int, int, int, bool]:
    """(entries, page, count, total, more) of a Patient search, through the client services:
    ids by `read_client` (the chart read), anything else by `list_clients` (summaries)."""
    del request, path
    count = params.count()
    page = decode_cursor("Patient", params.one("_cursor"))
    keep = _patient_filter(params)
    ids = _ids(params)
    by_identifier = await _identifier_ids(
        params,
        lambda value: clients_service.find_external(db, principal, value),
        mapping.CLIENT_ID_SYSTEM,
    )
    if ids is not None or by_identifier is not None:
        wanted = [
            i for i in (ids or by_identifier or []) if by_identifier is None or i in by_identifier
        ]
        if ids is not None and by_identifier is not None:
            wanted = [i for i in ids if i in by_identifier]
        clients = []
        for client_id in dict.fromkeys(wanted):
            try:
                clients.append(await clients_service.read_client(db, principal, client_id))
            except NotFound:
                continue
        matching = [c for c in clients if keep is None or keep(c)]
        return (
            [mapping.patient(c) for c in _page_of(matching, page, count)],
            page,
            count,
            len(matching),
            page * count < len(matching),
        )
    contact = [(n, params.one(n)) for n in ("email", "phone", "telecom") if params.one(n)]
    if len(contact) > 1:
        raise ApiError(400, "bad_request", "search by one of email, phone and telecom at a time")
    # The services search one term: an exact email or phone (blind index), else a name.
    names = params.all("name") or params.all("family") or params.all("given")
    q = contact[0][1] if contact else (names[0] if len(names) == 1 else None)
    if contact and q is not None:
        kind = clients_service.search_kind(q)
        if kind == "name" or (contact[0][0] == "email") != (kind == "email"):
            raise ApiError(
                400, "bad_request", f"{contact[0][0]} must be a whole email address or phone number"
            )
    include_archived = params.one("active") != "true"
    cache = state.client_list_cache
    if keep is None or (q is not None and not contact and _only_the_term(params)):
        summaries, total = await clients_service.list_clients(
            db,
            principal,
            Pagination(page, count),
            q=q,
            include_archived=include_archived,
            cache=cache,
        )
        if keep is not None:
            summaries = [s for s in summaries if keep(s)]
        return (
            [mapping.patient_summary(s) for s in summaries],
            page,
            count,
            total,
            page * count < total,
        )
    # Filters the services do not apply: the candidates (at most MAX_FILTERED), filtered here.
    everyone, total = await clients_service.list_clients(
        db,
        principal,
        Pagination(1, MAX_FILTERED + 1),
        q=q,
        include_archived=include_archived,
        cache=cache,
    )
    _refuse_too_broad(total)
    kept = [s for s in everyone if keep(s)]
    return (
        [mapping.patient_summary(s) for s in _page_of(kept, page, count)],
        page,
        count,
        len(kept),
        page * count < len(kept),
    )


def _only_the_term(params: Params) -> bool:
    """Whether the only filter is the one name term the service searches (`name=x`)."""
    filters = params.names() - PAGING - {"_format", "_pretty", "active"}
    return len(filters) == 1 and len(params.all(next(iter(filters)))) == 1 and filters <= {"name"}


@router.get("/Patient")
@declare(reads("clients"))
async def search_patients(
    request: Request, principal: CurrentPrincipal, db: DbSession, state: State
) -> Response:
    """Search clients. Email and phone are PHI: search them with POST Patient/_search."""
    params = Params(request.query_params.multi_items(), PATIENT_SEARCH)
    _smart(principal, "Patient", "s")
    entries, page, count, total, more = await _search_patients(
        request, params, principal, db, state
    )
    return _bundle(request, params, "Patient", "Patient", entries, page, count, total, more=more)


@router.post("/Patient/_search")
@declare(reads("clients"))
async def search_patients_by_form(
    request: Request, principal: CurrentPrincipal, db: DbSession, state: State
) -> Response:
    """The same search with its parameters in a form body (FHIR's POST search): search terms
    stay out of URLs. The next link repeats only the URL's parameters: send the form again."""
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media != FORM_MEDIA_TYPE:
        raise ApiError(415, "unsupported_media_type", f"send the search as {FORM_MEDIA_TYPE}")
    in_body = form_items(await request.body())
    params = Params([*request.query_params.multi_items(), *in_body], PATIENT_SEARCH)
    _smart(principal, "Patient", "s")
    entries, page, count, total, more = await _search_patients(
        request, params, principal, db, state
    )
    form = sorted({name for name, _ in in_body})
    return _bundle(
        request, params, "Patient/_search", "Patient", entries, page, count, total,
        form=form, more=more,
    )  # fmt: skip


@router.post("/Patient")
@declare(changes("clients"))
async def create_patient(
    request: Request, principal: CurrentPrincipal, db: DbSession, state: State
) -> Response:
    """Create a client; `If-None-Exist: <search>` creates only when the search finds none."""
    _read_params(request)
    _smart(principal, "Patient", "c")
    body = await _body(request)
    fields = _mapped(mapping.client_fields, body)
    condition = _if_none_exist(request)
    if condition is not None:
        params = Params(condition, PATIENT_SEARCH - PAGING)
        found, *_ = await _search_patients(request, params, principal, db, state)
        existing = _conditional_answer(found)
        if existing is not None:
            return existing
    created = await clients_service.create_client(
        db, principal, _validated(ClientCreate, fields, "Patient")
    )
    resource = mapping.patient(created)
    location = f"{base_url(request)}/Patient/{created.id}/_history/{resource['meta']['versionId']}"
    return _resource_response(resource, 201, Location=location)


@router.put("/Patient/{patient_id}")
@declare(changes("clients"))
async def update_patient(
    request: Request, patient_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    """Replace a client's record (fields absent from the body are cleared; names required).
    `If-Match: W/"<versionId>"` makes it conditional (412 when stale)."""
    _read_params(request)
    _smart(principal, "Patient", "u")
    client_id = _record_id(patient_id, "client")
    body = await _body(request)
    if body.get("id") not in (None, patient_id):
        raise ApiError(400, "bad_request", "the resource's id differs from the URL's")
    fields = _mapped(mapping.client_fields, body)
    update = _validated(ClientUpdate, fields, "Patient")
    # The check holds the row locked until the change commits (as REST's If-Match): no
    # change of another request slips in between.
    await _require_version(request, db, principal, Client, client_id)
    client = await clients_service.update_client(db, principal, client_id, update)
    return _resource_response(mapping.patient(client))


# --- Appointment -------------------------------------------------------------------------------

APPOINTMENT_SEARCH = frozenset(
    {"_id", "identifier", "date", "patient", "practitioner", "status", "_lastUpdated"} | PAGING
)


async def _read_appointment(db: DbSession, principal: Principal, text: str) -> dict[str, Any]:
    view = await appointments_service.read_appointment(
        db, principal, _record_id(text, "appointment")
    )
    return mapping.appointment(view)


@router.get("/Appointment/{appointment_id}")
@declare(reads("appointments", with_readable=("clients",)))
async def read_appointment(
    request: Request, appointment_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "Appointment", "r")
    return _resource_response(await _read_appointment(db, principal, appointment_id))


@router.get("/Appointment/{appointment_id}/_history/{version_id}")
@declare(reads("appointments", with_readable=("clients",)))
async def vread_appointment(
    request: Request,
    appointment_id: str,
    version_id: str,
    principal: CurrentPrincipal,
    db: DbSession,
) -> Response:
    _read_params(request)
    _smart(principal, "Appointment", "r")
    resource = await _read_appointment(db, principal, appointment_id)
    return _vread(resource, version_id, "an appointment")


@router.get("/Appointment/{appointment_id}/_history")
@declare(reads("appointments", with_readable=("clients",)))
async def appointment_history(
    request: Request, appointment_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "Appointment", "r")
    return _current_history(request, await _read_appointment(db, principal, appointment_id))


def _range(params: Params) -> tuple[datetime, datetime]:
    """The calendar range of `date=ge…&date=le…` (both needed: the calendar answers ranges
    of at most 62 days, as GET /appointments)."""
    start = end = None
    for bound in params.bounds("date"):
        if bound.prefix in ("ge", "gt"):
            start = bound.value
        elif bound.prefix in ("le", "lt"):
            # le a day: through the end of that day.
            whole_day = bound.precision_day and bound.prefix == "le"
            end = bound.value + (ONE_DAY if whole_day else timedelta(0))
        elif bound.prefix == "eq" and bound.precision_day:
            start, end = bound.value, bound.value + ONE_DAY
    if start is None or end is None:
        raise ApiError(
            400,
            "bad_request",
            "Appointment search needs a date range: date=ge<start>&date=le<end> (at most 62 days)",
        )
    return start, end


@router.get("/Appointment")
@declare(reads("appointments", with_readable=("clients",)))
async def search_appointments(
    request: Request, principal: CurrentPrincipal, db: DbSession
) -> Response:
    params = Params(request.query_params.multi_items(), APPOINTMENT_SEARCH)
    _smart(principal, "Appointment", "s")
    count = params.count()
    page = decode_cursor("Appointment", params.one("_cursor"))
    by_identifier = await _identifier_ids(
        params, lambda value: appointments_service.find_external(db, principal, value), None
    )
    if by_identifier is not None and not params.all("date"):
        # By the integrator's own id: no calendar range needed (each is a read).
        views = []
        for appointment_id in by_identifier:
            try:
                views.append(
                    await appointments_service.read_appointment(db, principal, appointment_id)
                )
            except NotFound:
                continue
        start = end = None
    else:
        start, end = _range(params)
    patients = _reference_ids(params, "patient", "Patient")
    practitioners = _reference_ids(params, "practitioner", "Practitioner")
    if patients is not None and len(patients) != 1:
        raise ApiError(400, "bad_request", "patient names one Patient")
    statuses = {
        mapping.APPOINTMENT_STATUS_FROM_FHIR.get(s.strip(), "?")
        for raw in params.all("status")
        for s in raw.split(",")
    }
    ids = _ids(params)
    updated = params.bounds("_lastUpdated")
    if start is not None and end is not None:
        views = await appointments_service.list_appointments(
            db,
            principal,
            start,
            end,
            clinician_ids=practitioners or (),
            client_id=patients[0] if patients else None,
        )
    matching = [
        view
        for view in views
        if (not statuses or view.appointment.status in statuses)
        and (ids is None or view.appointment.id in ids)
        and (by_identifier is None or view.appointment.id in by_identifier)
        and (patients is None or view.appointment.client_id in patients)
        and (practitioners is None or view.appointment.clinician_id in practitioners)
        and all(bound.accepts(view.appointment.updated_at) for bound in updated)
    ]
    entries = [mapping.appointment(v) for v in _page_of(matching, page, count)]
    return _bundle(
        request, params, "Appointment", "Appointment", entries, page, count, len(matching)
    )


def _appointment_create(body: dict[str, Any]) -> Any:
    fields = _mapped(mapping.appointment_fields, body)
    return _validated(AppointmentCreate, fields, "Appointment")


@router.post("/Appointment")
@declare(changes("appointments", with_readable=("clients",)))
async def create_appointment(
    request: Request, principal: CurrentPrincipal, db: DbSession
) -> Response:
    """Book an appointment (overlaps refused as by POST /appointments); `If-None-Exist`
    with `_id` or `identifier` (the external id) makes it conditional."""
    _read_params(request)
    _smart(principal, "Appointment", "c")
    booking = _appointment_create(await _body(request))
    condition = _if_none_exist(request)
    if condition is not None:
        params = Params(condition, {"_id", "identifier"})
        by_identifier = await _identifier_ids(
            params, lambda value: appointments_service.find_external(db, principal, value), None
        )
        found = []
        for appointment_id in dict.fromkeys([*(_ids(params) or []), *(by_identifier or [])]):
            try:
                found.append(
                    mapping.appointment(
                        await appointments_service.read_appointment(db, principal, appointment_id)
                    )
                )
            except NotFound:
                continue
        existing = _conditional_answer(found)
        if existing is not None:
            return existing
    view = await appointments_service.create_appointment(db, principal, booking)
    resource = mapping.appointment(view)
    location = (
        f"{base_url(request)}/Appointment/{resource['id']}/_history/{resource['meta']['versionId']}"
    )
    return _resource_response(resource, 201, Location=location)


@router.put("/Appointment/{appointment_id}")
@declare(changes("appointments", with_readable=("clients",)))
async def update_appointment(
    request: Request, appointment_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    """Replace an appointment (its client cannot change); `If-Match` as for Patient."""
    _read_params(request)
    _smart(principal, "Appointment", "u")
    record_id = _record_id(appointment_id, "appointment")
    body = await _body(request)
    if body.get("id") not in (None, appointment_id):
        raise ApiError(400, "bad_request", "the resource's id differs from the URL's")
    fields = _mapped(mapping.appointment_fields, body)
    await _require_version(request, db, principal, Appointment, record_id)
    current = await appointments_service.read_appointment(db, principal, record_id)
    if fields.pop("client_id") != current.appointment.client_id:
        raise ApiError(
            422,
            "validation_error",
            "an appointment's client cannot change; book a new one",
            details=[{"field": "Appointment.participant"}],
        )
    if fields["clinician_id"] is None:
        fields.pop("clinician_id")
    update = _validated(AppointmentUpdate, fields, "Appointment")
    view = await appointments_service.update_appointment(db, principal, record_id, update)
    return _resource_response(mapping.appointment(view))


# --- Encounter, DocumentReference, Provenance (notes) ------------------------------------------

NOTE_SEARCH = frozenset({"_id", "patient", "date", "practitioner", "status"} | PAGING)
ENCOUNTER_STATUS = {"finished": NoteStatus.FINALIZED, "in-progress": NoteStatus.DRAFT}


async def _signed_note(db: DbSession, principal: Principal, text: str) -> Any:
    note = await notes_service.read_note(db, principal, _record_id(text, "session note"))
    if note.status != NoteStatus.FINALIZED.value:
        # A draft is an Encounter in progress, not yet a document.
        raise NotFound("not_found", "document not found (the note is not signed yet)")
    return note


async def _document(db: DbSession, principal: Principal, note: Any) -> dict[str, Any]:
    found = await notes_service.addenda(db, principal.workspace_id, [note])
    return mapping.document_reference(note, found.get(note.id, ()))


async def _notes(
    params: Params,
    principal: Principal,
    db: DbSession,
    resource_type: str,
    *,
    signed_only: bool,
) -> tuple[list[Any], int, int, int]:
    """(notes of the page, page, count, total) through `list_notes`, newest first."""
    count = params.count()
    page = decode_cursor(resource_type, params.one("_cursor"))
    patients = _reference_ids(params, "patient", "Patient")
    authors = _reference_ids(params, "practitioner", "Practitioner")
    if (patients is not None and len(patients) != 1) or (authors is not None and len(authors) != 1):
        raise ApiError(400, "bad_request", "patient and practitioner each name one resource")
    status: NoteStatus | None = NoteStatus.FINALIZED if signed_only else None
    for raw in params.all("status"):
        if resource_type == "Encounter":
            if raw not in ENCOUNTER_STATUS:
                raise ApiError(400, "bad_request", "status is finished or in-progress")
            status = ENCOUNTER_STATUS[raw]
        elif raw != "current":
            return [], page, count, 0  # only current documents are served
    dates = params.bounds("date")
    ids = _ids(params)
    client_id = patients[0] if patients else None
    author_id = authors[0] if authors else None
    if not dates and ids is None:
        notes, total = await notes_service.list_notes(
            db, principal, Pagination(page, count), client_id=client_id, author_id=author_id,
            status=status,
        )  # fmt: skip
        return notes, page, count, total
    candidates, total = await notes_service.list_notes(
        db, principal, Pagination(1, MAX_FILTERED + 1), client_id=client_id,
        author_id=author_id, status=status,
    )  # fmt: skip
    _refuse_too_broad(total)
    matching = [
        note
        for note in candidates
        if all(bound.accepts(note.session_date) for bound in dates)
        and (ids is None or note.id in ids)
    ]
    return _page_of(matching, page, count), page, count, len(matching)


@router.get("/Encounter/{encounter_id}")
@declare(reads("notes"))
async def read_encounter(
    request: Request, encounter_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "Encounter", "r")
    note = await notes_service.read_note(db, principal, _record_id(encounter_id, "session note"))
    return _resource_response(mapping.encounter(note))


@router.get("/Encounter")
@declare(reads("notes"))
async def search_encounters(
    request: Request, principal: CurrentPrincipal, db: DbSession
) -> Response:
    params = Params(request.query_params.multi_items(), NOTE_SEARCH)
    _smart(principal, "Encounter", "s")
    notes, page, count, total = await _notes(params, principal, db, "Encounter", signed_only=False)
    entries = [mapping.encounter(note) for note in notes]
    return _bundle(request, params, "Encounter", "Encounter", entries, page, count, total)


@router.get("/DocumentReference/{document_id}")
@declare(reads("notes"))
async def read_document(
    request: Request, document_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "DocumentReference", "r")
    note = await _signed_note(db, principal, document_id)
    return _resource_response(await _document(db, principal, note))


async def _document_versions(
    db: DbSession, principal: Principal, document_id: str
) -> list[dict[str, Any]]:
    """Every version of a signed note, newest first (the current one, then what each
    amendment replaced: `list_versions`)."""
    note = await _signed_note(db, principal, document_id)
    current = await _document(db, principal, note)
    older, _ = await notes_service.list_versions(
        db, principal, note.id, Pagination(1, MAX_FILTERED)
    )
    return [current, *(mapping.document_reference_version(note, v) for v in older)]


@router.get("/DocumentReference/{document_id}/_history/{version_id}")
@declare(reads("notes"))
async def vread_document(
    request: Request,
    document_id: str,
    version_id: str,
    principal: CurrentPrincipal,
    db: DbSession,
) -> Response:
    _read_params(request)
    _smart(principal, "DocumentReference", "r")
    for version in await _document_versions(db, principal, document_id):
        if version["meta"]["versionId"] == version_id:
            return _resource_response(version)
    raise NotFound("version_not_found", "the document has no such version")


@router.get("/DocumentReference/{document_id}/_history")
@declare(reads("notes"))
async def document_history(
    request: Request, document_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "DocumentReference", "r")
    versions = await _document_versions(db, principal, document_id)
    base = base_url(request)
    url = f"{base}/DocumentReference/{document_id}/_history"
    return fhir_response(mapping.history(versions, base, self_url=url))


@router.get("/DocumentReference")
@declare(reads("notes"))
async def search_documents(
    request: Request, principal: CurrentPrincipal, db: DbSession
) -> Response:
    params = Params(request.query_params.multi_items(), NOTE_SEARCH)
    _smart(principal, "DocumentReference", "s")
    notes, page, count, total = await _notes(
        params, principal, db, "DocumentReference", signed_only=True
    )
    found = await notes_service.addenda(db, principal.workspace_id, notes)
    entries = [mapping.document_reference(note, found.get(note.id, ())) for note in notes]
    return _bundle(
        request, params, "DocumentReference", "DocumentReference", entries, page, count, total
    )


@router.get("/Provenance/{provenance_id}")
@declare(reads("notes"))
async def read_provenance(
    request: Request, provenance_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "Provenance", "r")
    parsed = mapping.split_provenance_id(provenance_id)
    if parsed is None:
        raise NotFound("not_found", "provenance not found")
    note = await notes_service.read_note(db, principal, parsed[0])
    for resource in mapping.provenances(note):
        if resource["id"] == provenance_id:
            return _resource_response(resource)
    raise NotFound("not_found", "provenance not found")


PROVENANCE_SEARCH = frozenset({"target", "patient"} | PAGING)


@router.get("/Provenance")
@declare(reads("notes"))
async def search_provenance(
    request: Request, principal: CurrentPrincipal, db: DbSession
) -> Response:
    """The signatures of one document (`target`) or of one patient's documents."""
    params = Params(request.query_params.multi_items(), PROVENANCE_SEARCH)
    _smart(principal, "Provenance", "s")
    targets = _reference_ids(params, "target", "DocumentReference")
    if targets is not None:
        notes = []
        for note_id in targets:
            try:
                notes.append(await notes_service.read_note(db, principal, note_id))
            except NotFound:
                continue
        page, count = 1, params.count()
        total = None
    elif params.all("patient"):
        notes, page, count, total = await _notes(
            params, principal, db, "Provenance", signed_only=True
        )
    else:
        raise ApiError(400, "bad_request", "search Provenance by target or patient")
    entries = [resource for note in notes for resource in mapping.provenances(note)]
    return _bundle(request, params, "Provenance", "Provenance", entries, page, count, total)


# --- Practitioner, PractitionerRole, Organization ----------------------------------------------

DIRECTORY_SEARCH = frozenset({"_id"} | PAGING)


async def _users(db: DbSession, principal: Principal) -> list[Any]:
    return list(await auth_service.list_clinicians(db, principal.workspace_id))


async def _user(db: DbSession, principal: Principal, text: str) -> Any:
    user = await auth_service.get_user(db, principal.workspace_id, _record_id(text, "user"))
    if user is None:
        raise NotFound("not_found", "practitioner not found")
    return user


@router.get("/Practitioner/{practitioner_id}")
@declare(READS_DIRECTORY)
async def read_practitioner(
    request: Request, practitioner_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "Practitioner", "r")
    return _resource_response(mapping.practitioner(await _user(db, principal, practitioner_id)))


@router.get("/PractitionerRole/{role_id}")
@declare(READS_DIRECTORY)
async def read_practitioner_role(
    request: Request, role_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "PractitionerRole", "r")
    return _resource_response(mapping.practitioner_role(await _user(db, principal, role_id)))


async def _directory(
    request: Request,
    principal: Principal,
    db: DbSession,
    resource_type: str,
    build: Callable[[Any], dict[str, Any]],
) -> Response:
    params = Params(request.query_params.multi_items(), DIRECTORY_SEARCH)
    _smart(principal, resource_type, "s")
    count = params.count()
    page = decode_cursor(resource_type, params.one("_cursor"))
    ids = _ids(params)
    users = [u for u in await _users(db, principal) if ids is None or u.id in ids]
    entries = [build(u) for u in _page_of(users, page, count)]
    return _bundle(request, params, resource_type, resource_type, entries, page, count, len(users))


@router.get("/Practitioner")
@declare(READS_DIRECTORY)
async def search_practitioners(
    request: Request, principal: CurrentPrincipal, db: DbSession
) -> Response:
    return await _directory(request, principal, db, "Practitioner", mapping.practitioner)


@router.get("/PractitionerRole")
@declare(READS_DIRECTORY)
async def search_practitioner_roles(
    request: Request, principal: CurrentPrincipal, db: DbSession
) -> Response:
    return await _directory(request, principal, db, "PractitionerRole", mapping.practitioner_role)


async def _practice(db: DbSession, principal: Principal) -> dict[str, Any]:
    workspace = await workspaces_service.get_by_id(db, principal.workspace_id)
    if workspace is None:
        raise NotFound("not_found", "organization not found")
    return mapping.organization(workspace)


@router.get("/Organization/{organization_id}")
@declare(READS_DIRECTORY)
async def read_organization(
    request: Request, organization_id: str, principal: CurrentPrincipal, db: DbSession
) -> Response:
    _read_params(request)
    _smart(principal, "Organization", "r")
    if _record_id(organization_id, "organization") != principal.workspace_id:
        raise NotFound("not_found", "organization not found")
    return _resource_response(await _practice(db, principal))


@router.get("/Organization")
@declare(READS_DIRECTORY)
async def search_organizations(
    request: Request, principal: CurrentPrincipal, db: DbSession
) -> Response:
    """Your practice (the one organization a credential sees)."""
    params = Params(request.query_params.multi_items(), DIRECTORY_SEARCH)
    _smart(principal, "Organization", "s")
    ids = _ids(params)
    practice = await _practice(db, principal)
    entries = [practice] if ids is None or principal.workspace_id in ids else []
    return _bundle(request, params, "Organization", "Organization", entries, 1, 1, len(entries))


# --- AuditEvent (owners, read-only) ------------------------------------------------------------

AUDIT_SEARCH = frozenset({"date", "patient", "entity", "agent"} | PAGING)


@router.get("/AuditEvent")
@declare(reads("audit"))
async def search_audit_events(request: Request, owner: CurrentOwner, db: DbSession) -> Response:
    """Owners: the audit trail, newest first (`date` ge/lt, `patient` or `entity` to one
    record, `agent` to one user), itself audited as `audit.read` like GET /audit-events."""
    params = Params(request.query_params.multi_items(), AUDIT_SEARCH)
    _smart(owner, "AuditEvent", "s")
    count = params.count()
    page = decode_cursor("AuditEvent", params.one("_cursor"))
    since = until = None
    for bound in params.bounds("date"):
        if bound.prefix in ("ge", "gt"):
            since = bound.value
        elif bound.prefix in ("lt", "le"):
            until = bound.value
        else:
            raise ApiError(400, "bad_request", "date takes ge, gt, le or lt")
    entity = _reference_ids(params, "patient", "Patient") or _entity(params)
    agents = _reference_ids(params, "agent", "Practitioner")
    filters = audit_service.EventFilters(
        user_id=agents[0] if agents else None,
        resource_type="client" if params.all("patient") else None,
        resource_id=entity[0] if entity else None,
        since=since,
        until=until,
    )
    events, total = await audit_service.list_events(
        db, owner.workspace_id, filters, Pagination(page, count)
    )
    await audit_service.record(
        db,
        owner.actor,
        "audit.read",
        resource_type="audit_event",
        details={"count": len(events), "via": "fhir"},
    )
    entries = [mapping.audit_event(event, owner.workspace_id) for event in events]
    return _bundle(request, params, "AuditEvent", "AuditEvent", entries, page, count, total)


def _entity(params: Params) -> list[uuid.UUID] | None:
    """`entity=Type/id` or `entity=id`: one record of this server."""
    raw = params.all("entity")
    if not raw:
        return None
    try:
        return [uuid.UUID(raw[0].rsplit("/", 1)[-1])]
    except ValueError:
        raise ApiError(400, "bad_request", "entity names one record: Type/id") from None


# --- anything else -----------------------------------------------------------------------------


@router.api_route("/{rest:path}", methods=["GET", "POST", "PUT", "PATCH", "DELETE"])
@declare(PUBLIC)
async def unknown(rest: str) -> Response:
    """Resources and interactions this server does not support: 404 (the metadata lists
    what it does)."""
    del rest
    raise ApiError(
        404, "not_found", "no such FHIR resource type or interaction here; see /fhir/R4/metadata"
    )
