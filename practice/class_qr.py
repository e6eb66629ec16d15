"""The join link as a QR code, made locally (``segno``; no web service sees the link)."""

from __future__ import annotations

import io

import segno


def qr_png(url: str, *, scale: int = 12) -> bytes:
    """A QR code of ``url`` as PNG bytes, error correction M, a 4-module quiet zone.

    With ``scale`` 12 a join link of ~60 characters is about 500 px square: projected
    a metre wide, a phone reads it from the back of a lecture room.
    """
    out = io.BytesIO()
    segno.make(url, error="m", boost_error=False).save(out, kind="png", scale=scale, border=4)
    return out.getvalue()
