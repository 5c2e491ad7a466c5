"""The printable marker sheet: PNG and a one-page PDF at true size, with placement notes."""

from __future__ import annotations

import zlib
from pathlib import Path

import cv2
import numpy as np

from vision.board.markers import DEFAULT_LAYOUT, MarkerLayout, marker_image

A4_MM = (210.0, 297.0)


def _mm(v: float, dpi: int) -> int:
    return int(round(v / 25.4 * dpi))


def render_sheet(layout: MarkerLayout = DEFAULT_LAYOUT, dpi: int = 300) -> np.ndarray:
    """A4 page (grey, white paper) with every marker at its true printed size."""
    w, h = _mm(A4_MM[0], dpi), _mm(A4_MM[1], dpi)
    page = np.full((h, w), 255, np.uint8)
    font = cv2.FONT_HERSHEY_SIMPLEX
    fs = dpi / 300.0

    def text(s: str, x_mm: float, y_mm: float, scale: float = 0.9, thick: int = 2) -> None:
        cv2.putText(page, s, (_mm(x_mm, dpi), _mm(y_mm, dpi)), font, scale * fs, 0,
                    max(1, int(thick * fs)), cv2.LINE_AA)

    text("Board markers (ArUco 4x4_50) - print at 100% scale, matte paper", 12, 14, 1.0)
    text("Check: the bar below must measure exactly 100 mm.", 12, 21, 0.8)
    cv2.rectangle(page, (_mm(12, dpi), _mm(24, dpi)), (_mm(112, dpi), _mm(26, dpi)), 0, -1)
    text("Cut each marker with its white margin. Lay the board with GO bottom-right as seen", 12,
         33, 0.75)
    text("from the camera. Stick each marker upright (label text readable from GO's side),", 12,
         38.5, 0.75)
    text(f"its near edge {layout.gap_mm:.0f} mm outside the board edge, centred at the distance",
         12, 44, 0.75)
    text("given along that edge. Keep markers flat and uncovered; any 2 may be hidden.", 12, 49.5,
         0.75)
    size = _mm(layout.marker_mm, dpi)
    cols, cell_w, cell_h = 3, 62.0, 58.0
    for k, p in enumerate(layout.placements()):
        col, row = k % cols, k // cols
        x0 = 12 + col * cell_w + (cell_w - layout.marker_mm) / 2 - 4
        y0 = 56 + row * cell_h
        mk = marker_image(p.marker_id, size)
        px, py = _mm(x0, dpi), _mm(y0, dpi)
        page[py:py + size, px:px + size] = mk
        cv2.rectangle(page, (px - _mm(6, dpi), py - _mm(6, dpi)),
                      (px + size + _mm(6, dpi), py + size + _mm(6, dpi)), 170, 1)
        text(f"M{p.marker_id}: {p.side} edge", x0 - 4, y0 + layout.marker_mm + 9.5, 0.6)
        text(f"{p.along_mm:.0f} mm from {p.anchor.split(' (')[0]}", x0 - 4,
             y0 + layout.marker_mm + 14.5, 0.55, 1)
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
