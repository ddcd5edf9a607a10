"""A fifth rule system that lives only in the tests: "Dados de juguete".

It is laid out as a real system would be, one folder for the pure engine (`rules.py`)
and one for what Django needs (`system.py`), and it touches no generic code: proof that a
new system is one folder in each place and no migration.
"""
