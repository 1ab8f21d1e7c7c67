"""x."""


def test_x() -> None:
    assert True
