"""The console mailer of a site without SMTP: each message printed as a person reads it."""

from __future__ import annotations

from django.core.mail.backends import console


class EmailBackend(console.EmailBackend):
    """Headers, then the text decoded.

    Django's console backend prints the encoded message: quoted-printable breaks a long
    line with "=" every 76 characters, so a password-reset link copied from the log came
    in pieces (README, "Configuration").
    """

    def write_message(self, message) -> None:
        mime = message.message()
        headers = "".join(f"{name}: {value}\n" for name, value in mime.items())
        body = (mime.get_body(("plain",)) or mime).get_content()
        self.stream.write(f"{headers}\n{body}\n{'-' * 79}\n")
