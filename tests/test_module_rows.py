"""`module_rows` (tests/conftest.py): rows a module's tests share are made once, and every
test starts from them as they were made, whatever an earlier test of the module did."""

import pytest
from django.contrib.auth import get_user_model

from tests.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module", autouse=True)
def _nothing_left_after_the_module(django_db_blocker):
    """Set up before `module_rows`, so torn down after it: the rows it made are gone."""
    yield
    with django_db_blocker.unblock():
        assert not get_user_model().objects.filter(username="shared").exists()


@pytest.fixture(scope="module")
def shared(module_rows):
    with module_rows.unblock():
        return UserFactory(username="shared", first_name="Made once").pk


# Two tests in file order (as one process runs them): the second fails if the first's
# writes reached it.
@pytest.mark.parametrize("step", ["change then delete", "find it as made"])
def test_each_test_finds_the_shared_rows_as_they_were_made(shared, step):
    users = get_user_model().objects
    assert users.filter(pk=shared, first_name="Made once").exists()
    if step == "change then delete":
        users.filter(pk=shared).update(first_name="Changed")
        UserFactory(username="added")
        users.filter(pk=shared).delete()
    else:
        assert not users.filter(username="added").exists()
