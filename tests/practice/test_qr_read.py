"""practice.qr_read: the QR code in a picture of a learner link (a screenshot, a photo),
read locally; pictures that are too large, too many pixels or not pictures are refused in
plain words before anything is decoded."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from practice.class_qr import qr_png
from practice.qr_read import MAX_PICTURE_BYTES, MAX_PIXELS, qr_texts

LINK = "https://lab.example/review?learner=2occoS8VKBh9gWKpd5RaDJA8bA4sbRYY"


def as_photo(png: bytes) -> bytes:
    """The QR code as a phone keeps it: a JPEG, smaller, on a grey page, a little turned."""
    code = Image.open(io.BytesIO(png)).convert("L").resize((300, 300))
    page = Image.new("L", (800, 600), 200)
    page.paste(code.rotate(7, expand=True, fillcolor=255), (250, 120))
    out = io.BytesIO()
    page.save(out, format="JPEG", quality=70)
    return out.getvalue()


def test_a_screenshot_and_a_photo_of_a_learner_link_read_back():
    assert qr_texts(qr_png(LINK, scale=6)) == [LINK]
    assert qr_texts(as_photo(qr_png(LINK))) == [LINK]


def test_a_picture_without_a_code_reads_nothing():
    out = io.BytesIO()
    Image.new("RGB", (200, 100), "white").save(out, format="PNG")
    assert qr_texts(out.getvalue()) == []


@pytest.mark.parametrize(
    "data, says",
    [
        (b"not a picture at all", "not a picture"),
        (b"\x89PNG\r\n\x1a\n" + b"\x00" * 40, "not a picture"),
        (b"x" * (MAX_PICTURE_BYTES + 1), "too large"),
        (b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>", "not a pic"),
    ],
    ids=["text", "cut-png", "6-mb", "svg"],
)
def test_what_is_not_a_readable_picture_is_refused_in_plain_words(data, says):
    with pytest.raises(ValueError, match=says):
        qr_texts(data)


def test_a_decompression_bomb_is_refused_from_its_header():
    side = int(MAX_PIXELS**0.5) + 100
    out = io.BytesIO()
    Image.new("1", (side, side), 1).save(out, format="PNG")  # a few kB, 40+ megapixels
    assert len(out.getvalue()) < MAX_PICTURE_BYTES
    with pytest.raises(ValueError, match="too many pixels"):
        qr_texts(out.getvalue())


@pytest.mark.parametrize("kind", ["TIFF", "BMP", "PPM"])
def test_only_a_phones_picture_formats_are_decoded(kind):
    """A QR code saved as TIFF, BMP or PPM is refused: Pillow's rarer decoders never see an
    upload (practice.qr_read.FORMATS)."""
    out = io.BytesIO()
    Image.open(io.BytesIO(qr_png(LINK, scale=6))).convert("L").save(out, format=kind)
    with pytest.raises(ValueError, match="not a picture"):
        qr_texts(out.getvalue())
