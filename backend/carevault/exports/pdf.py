"""A client's record as a readable PDF (reportlab): the practice's name, the client's name
and the date of export on every page, page numbers, a heading per note and per SOAP
section, every replaced version and amendment, the signatures, and the psychotherapy
notes' exclusion stated with their count."""

from __future__ import annotations

import io
from xml.sax.saxutils import escape

from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    Flowable,
    KeepTogether,
    Paragraph,
    SimpleDocTemplate,
    Spacer,
    Table,
    TableStyle,
)

from carevault.exports.fhir import SOAP_SECTIONS
from carevault.exports.record import PSYCHOTHERAPY_EXCLUSION, ClientRecord, NoteRecord
from carevault.notes.models import NoteStatus, SessionNote, SessionNoteVersion
from carevault.notes.signing import SIGNATURE_STATEMENTS

_STYLES = getSampleStyleSheet()
_BODY = _STYLES["BodyText"]
_SECTION = ParagraphStyle("Section", parent=_STYLES["Heading4"], spaceBefore=4, spaceAfter=1)
_SMALL = ParagraphStyle("Small", parent=_BODY, fontSize=8, textColor=colors.grey)


def _text(value: object) -> str:
    """Escaped for reportlab's mini-markup, line breaks kept."""
    return escape(str(value)).replace("\n", "<br/>")


def _fields(rows: list[tuple[str, object | None]]) -> Table:
    data = [
        [Paragraph(f"<b>{_text(label)}</b>", _BODY), Paragraph(_text(value), _BODY)]
        for label, value in rows
        if value not in (None, "")
    ] or [[Paragraph("—", _BODY), Paragraph("", _BODY)]]
    table = Table(data, colWidths=[45 * mm, 125 * mm])
    table.setStyle(TableStyle([("VALIGN", (0, 0), (-1, -1), "TOP")]))
    return table


def _soap(source: SessionNote | SessionNoteVersion) -> list[Flowable]:
    found: list[Flowable] = []
    for name, title in SOAP_SECTIONS:
        text = getattr(source, name)
        if text:
            found += [Paragraph(title, _SECTION), Paragraph(_text(text), _BODY)]
    return found or [Paragraph("<i>(no content)</i>", _BODY)]


def _note(record: ClientRecord, entry: NoteRecord) -> list[Flowable]:
    note = entry.note
    status = "signed" if note.status == NoteStatus.FINALIZED.value else "draft (unsigned)"
    flow: list[Flowable] = [
        Paragraph(
            f"Session of {note.session_date.isoformat()} ({note.duration_minutes} min)",
            _STYLES["Heading3"],
        ),
        _fields(
            [
                ("Status", status),
                ("Version", note.version),
                ("Author", record.staff_name(note.author_id)),
            ]
        ),
        *_soap(note),
    ]
    if note.finalized_at is not None:
        statement = SIGNATURE_STATEMENTS.get(note.attestation_version or 0, "")
        signed = (
            f"Signed by {record.staff_name(note.signed_by)} on "
            f"{note.finalized_at.isoformat(timespec='minutes')}"
            + (" (late entry)" if note.late_entry else "")
        )
        flow.append(Paragraph("Signature", _SECTION))
        flow.append(Paragraph(_text(signed), _BODY))
        if statement:
            flow.append(Paragraph(_text(f"Attested: {statement}"), _SMALL))
    if note.cosigned_at is not None:
        flow.append(
            Paragraph(
                _text(
                    f"Co-signed by {record.staff_name(note.cosigned_by)} on "
                    f"{note.cosigned_at.isoformat(timespec='minutes')}"
                ),
                _BODY,
            )
        )
    if entry.versions:
        flow.append(Paragraph("Amendments", _SECTION))
        for version in entry.versions:
            flow.append(
                Paragraph(
                    _text(
                        f"Version {version.version + 1}: amended by "
                        f"{record.staff_name(version.amended_by)} on "
                        f"{version.amended_at.isoformat(timespec='minutes')}. Reason: "
                        f"{version.reason or '(not recorded)'}"
                    ),
                    _BODY,
                )
            )
        for version in reversed(entry.versions):
            flow.append(
                Paragraph(
                    f"Version {version.version} (replaced by an amendment)", _STYLES["Heading4"]
                )
            )
            flow += _soap(version)
    flow.append(Spacer(1, 6 * mm))
    return flow


def render(record: ClientRecord) -> bytes:
    client = record.client
    full_name = f"{client.first_name} {client.last_name}"
    exported = record.exported_at.date().isoformat()
    buffer = io.BytesIO()

    def frame(canvas: Canvas, document: SimpleDocTemplate) -> None:
        canvas.saveState()
        canvas.setFont("Helvetica", 8)
        width, height = A4
        canvas.drawString(18 * mm, height - 12 * mm, record.practice_name)
        canvas.drawRightString(
            width - 18 * mm, height - 12 * mm, f"{full_name} - exported {exported}"
        )
        canvas.drawCentredString(width / 2, 10 * mm, f"Page {document.page}")
        canvas.restoreState()

    document = SimpleDocTemplate(
        buffer,
        pagesize=A4,
        leftMargin=18 * mm,
        rightMargin=18 * mm,
        topMargin=20 * mm,
        bottomMargin=18 * mm,
        title=f"Health record export {client.id}",
        author=record.practice_name,
        subject="Right of access export (45 CFR 164.524)",
    )
    story: list[Flowable] = [
        Paragraph(_text(record.practice_name), _STYLES["Title"]),
        Paragraph(_text(f"Health record of {full_name}"), _STYLES["Heading1"]),
        Paragraph(_text(f"Exported on {exported}"), _BODY),
        Spacer(1, 4 * mm),
    ]
    if record.psychotherapy_notes_excluded:
        count = record.psychotherapy_notes_excluded
        story.append(
            Paragraph(
                _text(
                    f"{count} psychotherapy {'note is' if count == 1 else 'notes are'} not "
                    f"included: {PSYCHOTHERAPY_EXCLUSION}."
                ),
                _BODY,
            )
        )
    story += [
        Paragraph("Demographics", _STYLES["Heading2"]),
        _fields(
            [
                ("Name", full_name),
                (
                    "Date of birth",
                    client.date_of_birth.isoformat() if client.date_of_birth else None,
                ),
                ("Email", client.email),
                ("Phone", client.phone),
                ("Address", client.address),
                ("Emergency contact", client.emergency_contact_name),
                ("Emergency phone", client.emergency_contact_phone),
                ("Medical history", client.medical_history),
                ("Notes", client.notes),
                (
                    "Client since",
                    client.created_at.date().isoformat() if client.created_at else None,
                ),
            ]
        ),
        Paragraph("Appointments", _STYLES["Heading2"]),
    ]
    if record.appointments:
        rows = [["Date", "Time", "Status", "Clinician", "Location"]]
        for appointment in record.appointments:
            rows.append(
                [
                    appointment.starts_at.date().isoformat(),
                    f"{appointment.starts_at:%H:%M}-{appointment.ends_at:%H:%M} UTC",
                    appointment.status,
                    record.staff_name(appointment.clinician_id),
                    appointment.location or "",
                ]
            )
        table = Table(rows, repeatRows=1)
        table.setStyle(
            TableStyle(
                [
                    ("FONTNAME", (0, 0), (-1, 0), "Helvetica-Bold"),
                    ("LINEBELOW", (0, 0), (-1, 0), 0.5, colors.black),
                    ("FONTSIZE", (0, 0), (-1, -1), 9),
                ]
            )
        )
        story.append(table)
    else:
        story.append(Paragraph("No appointments.", _BODY))
    story.append(Paragraph("Session notes", _STYLES["Heading2"]))
    if not record.notes:
        story.append(Paragraph("No session notes.", _BODY))
    for entry in record.notes:
        flow = _note(record, entry)
        story.append(KeepTogether(flow[:3]))
        story += flow[3:]
    document.build(story, onFirstPage=frame, onLaterPages=frame)
    return buffer.getvalue()
