"""Mundo de Tinieblas (seed 000): d10 pools, 8+ succeeds, 10-again."""
