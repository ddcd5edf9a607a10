import functools

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth import forms as auth_forms
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import User
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from accounts import outbox


class SignUpForm(UserCreationForm):
    email = forms.EmailField(label=_("Email"), required=False)

    class Meta(UserCreationForm.Meta):
        model = User
        fields = ("username", "email")


class _UsernameFits:
    """Django's login form sets the username's max_length after the field is built, so
    nothing checks it: an over-long name went on to the login throttle's table, whose
    column PostgreSQL keeps to 255, and the page answered 500."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        field = self.fields["username"]
        field.validators.append(MaxLengthValidator(field.max_length))


class LoginForm(_UsernameFits, AuthenticationForm):
    pass


class AdminLoginForm(_UsernameFits, AdminAuthenticationForm):
    pass


class PasswordResetForm(auth_forms.PasswordResetForm):
    """Django's, with each mail rendered and sent after the response (accounts.outbox)."""

    def send_mail(self, *args, **kwargs) -> None:
        outbox.send_later(functools.partial(super().send_mail, *args, **kwargs))
