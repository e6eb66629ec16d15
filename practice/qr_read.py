"""Reading the QR codes in a picture: a learner link kept as a screenshot or a photo.

A phone's camera app opens a learner link's QR code by itself; a learner with only a
picture of it (a screenshot on the same phone, a photo on a laptop) uploads the picture
and the server reads it here, locally, with ``zxing-cpp`` (no web service sees the link).
An uploaded picture is untrusted: at most ``MAX_PICTURE_BYTES`` and ``MAX_PIXELS`` (checked
from the header, before anything is decoded, so a decompression bomb is refused unread).
"""

from __future__ import annotations

import io

import zxingcpp
from PIL import Image, UnidentifiedImageError

MAX_PICTURE_BYTES = 5_000_000
"""The largest picture read (a phone's photo is 2-5 MB)."""
MAX_PIXELS = 40_000_000
"""The most pixels read (a 48-megapixel photo, downscaled by the phone, is below)."""
FORMATS = ("PNG", "JPEG", "WEBP", "GIF")
"""The only decoders Pillow may use on an upload: a phone's screenshots and photos, none of
Pillow's rarer formats."""


def qr_texts(data: bytes) -> list[str]:
    """The texts of the QR codes in a picture (PNG, JPEG, WebP, GIF), in reading order;
    [] when it holds none. ValueError in plain words for a file too large, too many pixels
    or not a picture."""
    if len(data) > MAX_PICTURE_BYTES:
        raise ValueError(f"The picture is too large: at most {MAX_PICTURE_BYTES:,} bytes.")
    try:
        with Image.open(io.BytesIO(data), formats=FORMATS) as picture:
            if picture.width * picture.height > MAX_PIXELS:
                raise ValueError(
                    f"The picture has too many pixels ({picture.width} × {picture.height}): "
                    "crop it to the QR code."
                )
            grey = picture.convert("L")
    except (UnidentifiedImageError, OSError, Image.DecompressionBombError, SyntaxError):
        raise ValueError("That file is not a picture this page can read (PNG or JPEG).") from None
    found = zxingcpp.read_barcodes(grey, formats=zxingcpp.BarcodeFormat.QRCode)
    return [code.text for code in found if code.valid]
