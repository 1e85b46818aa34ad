"""Uploads are refused by their declared size before they are read: a 50 MB file is not parsed, stored in a
temporary file and only then refused. The view tells the user (``upload_refused``)."""

from django.conf import settings
from django.core.files.uploadhandler import FileUploadHandler, StopUpload

#: Room for the other form fields and the multipart boundaries around the file itself.
FORM_OVERHEAD_BYTES = 64 * 1024


def upload_refused(request) -> bool:
    """True when the request carried a file larger than ``UPLOAD_MAX_BYTES`` (it was not read)."""
    return getattr(request, "upload_refused", False)


class SizeLimitUploadHandler(FileUploadHandler):
    """First of the upload handlers: stops a request whose body is larger than the limit at its first file.

    The form fields before the file (the CSRF token) are kept; the file and what follows are not read.
    """

    def handle_raw_input(self, input_data, META, content_length, boundary, encoding=None):
        self.too_large = content_length > settings.UPLOAD_MAX_BYTES + FORM_OVERHEAD_BYTES

    def new_file(self, *args, **kwargs):
        if self.too_large:
            self.request.upload_refused = True
            raise StopUpload(connection_reset=True)

    def receive_data_chunk(self, raw_data, start):
        return raw_data  # within the limit: the next handlers store it

    def file_complete(self, file_size):
        return None
