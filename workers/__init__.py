"""Infrastructure that runs untrusted work away from the server process (see upload.py)."""
