"""The printable marker sheet: PNG and a one-page PDF at true size, with placement notes."""

from __future__ import annotations

import zlib
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.board.markers import DEFAULT_LAYOUT, MarkerLayout, marker_image

A4_MM = (210.0, 297.0)


def _mm(v: float, dpi: int) -> int:
    return int(round(v / 25.4 * dpi))


MARGIN_MM = 6.0  # white paper kept around each marker when it is cut out
LABEL_MM = 13.0  # room below the marker, inside its cut box, for its two label lines
TOP_MM = 48.0  # the first row of cut boxes starts below the instructions
COLS, CELL_W_MM, CELL_H_MM = 3, 62.0, 60.0


@dataclass(frozen=True)
class CutBox:
    """One marker's place on the sheet, in mm from the page's top-left corner: the box to cut
    along (marker, white margin and its labels), the marker itself, and the label baselines."""

    marker_id: int
    box: tuple[float, float, float, float]  # x0, y0, x1, y1
    marker: tuple[float, float]  # x0, y0 of the marker (its size is the layout's)
    labels: tuple[tuple[str, float, float, float, int], ...]  # text, x, y (baseline), scale, weight


def cut_boxes(layout: MarkerLayout = DEFAULT_LAYOUT) -> list[CutBox]:
    """Where each marker, its cut box and its labels go; each label inside its own box."""
    out = []
    size = layout.marker_mm
    for k, p in enumerate(layout.placements()):
        col, row = k % COLS, k // COLS
        x0 = 12 + col * CELL_W_MM + (CELL_W_MM - size) / 2 - 4
        y0 = TOP_MM + MARGIN_MM + row * CELL_H_MM
        box = (x0 - MARGIN_MM, y0 - MARGIN_MM, x0 + size + MARGIN_MM, y0 + size + LABEL_MM)
        labels = ((f"M{p.marker_id}: {p.side} edge", x0 - 3, y0 + size + 5.5, 0.6, 2),
                  (f"{p.along_mm:.0f} mm from {p.anchor.split(' (')[0]}", x0 - 3,
                   y0 + size + 10.5, 0.55, 1))
        out.append(CutBox(p.marker_id, box, (x0, y0), labels))
    return out


INSTRUCTIONS: tuple[tuple[str, float, float], ...] = (
    ("Board markers (ArUco 4x4_50) - print at 100% scale, matte paper", 12.0, 1.0),
    ("Check: the bar below must measure exactly 100 mm.", 18.0, 0.8),
    ("Cut along each grey box: the marker, its white margin and its own labels. Lay the", 28.0,
     0.75),
    ("board with GO bottom-right as seen from the camera. Stick each marker upright (label", 33.0,
     0.75),
    ("readable from GO's side), its near edge {gap} mm outside the board edge, centred at the",
     38.0, 0.75),
    ("distance given along that edge. Keep markers flat and uncovered; any 2 may be hidden.",
     43.0, 0.75),
)
BAR_MM = (12.0, 20.0, 112.0, 22.0)


def render_sheet(layout: MarkerLayout = DEFAULT_LAYOUT, dpi: int = 300) -> np.ndarray:
    """A4 page (grey, white paper) with every marker at its true printed size."""
    w, h = _mm(A4_MM[0], dpi), _mm(A4_MM[1], dpi)
    page = np.full((h, w), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    fs = dpi / 300.0

    def text(s: str, x_mm: float, y_mm: float, scale: float = 0.9, thick: int = 2) -> None:
        cv2.putText(page, s, (_mm(x_mm, dpi), _mm(y_mm, dpi)), font, scale * fs, 0,
                    max(1, int(thick * fs)), cv2.LINE_AA)

    for line, y, scale in INSTRUCTIONS:
        text(line.format(gap=f"{layout.gap_mm:.0f}"), 12, y, scale)
    x0, y0, x1, y1 = BAR_MM
    cv2.rectangle(page, (_mm(x0, dpi), _mm(y0, dpi)), (_mm(x1, dpi), _mm(y1, dpi)), 0, -1)
    size = _mm(layout.marker_mm, dpi)
    for cut in cut_boxes(layout):
        px, py = _mm(cut.marker[0], dpi), _mm(cut.marker[1], dpi)
        page[py:py + size, px:px + size] = marker_image(cut.marker_id, size)
        bx0, by0, bx1, by1 = cut.box
        cv2.rectangle(page, (_mm(bx0, dpi), _mm(by0, dpi)), (_mm(bx1, dpi), _mm(by1, dpi)),
                      170, 1)
        for label, lx, ly, scale, weight in cut.labels:
            text(label, lx, ly, scale, weight)
    return page


def write_pdf(gray: np.ndarray, path: Path, page_mm: tuple[float, float] = A4_MM) -> None:
    """A minimal one-page PDF showing a greyscale image over the whole page (true size)."""
    h, w = gray.shape
    data = zlib.compress(np.ascontiguousarray(gray).tobytes(), 9)
    pw, ph = page_mm[0] / 25.4 * 72, page_mm[1] / 25.4 * 72
    content = f"q {pw:.2f} 0 0 {ph:.2f} 0 0 cm /Im0 Do Q".encode()
    objs = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        (f"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 {pw:.2f} {ph:.2f}] "
         f"/Resources << /XObject << /Im0 4 0 R >> >> /Contents 5 0 R >>").encode(),
        (f"<< /Type /XObject /Subtype /Image /Width {w} /Height {h} /ColorSpace /DeviceGray "
         f"/BitsPerComponent 8 /Filter /FlateDecode /Length {len(data)} >>\nstream\n").encode()
        + data + b"\nendstream",
        f"<< /Length {len(content)} >>\nstream\n".encode() + content + b"\nendstream",
    ]
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for i, body in enumerate(objs, start=1):
        offsets.append(len(out))
        out += f"{i} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objs) + 1}\n0000000000 65535 f \n".encode()
    for off in offsets:
        out += f"{off:010d} 00000 n \n".encode()
    out += (f"trailer\n<< /Size {len(objs) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n"
            ).encode()
    path.write_bytes(bytes(out))


def write_sheet(out: Path, layout: MarkerLayout = DEFAULT_LAYOUT, dpi: int = 300
                ) -> tuple[Path, Path]:
    """Write OUT.png and OUT.pdf (whatever suffix `out` has)."""
    page = render_sheet(layout, dpi)
    png = out.with_suffix(".png")
    pdf = out.with_suffix(".pdf")
    png.parent.mkdir(parents=True, exist_ok=True)
    if not cv2.imwrite(str(png), page, [cv2.IMWRITE_PNG_COMPRESSION, 9]):
        raise OSError(f"could not write {png}")
    write_pdf(page, pdf)
    return png, pdf
