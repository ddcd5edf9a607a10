"""Fixtures the campaign tests share; a module that needs another scene or character
defines its own under the same name."""

import pytest

from campaigns import services
from tests.factories import make_character


@pytest.fixture
def lucia(campaign, player):
    return make_character(campaign, player, name="Lucía")


@pytest.fixture
def scene(campaign, lucia):
    return services.scene_create(campaign=campaign, title="El archivo", participants=[lucia])
