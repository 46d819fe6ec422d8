"""Issue 51, case 15 and its LOW cases: what the Python API gives the library is checked first —
a fraction for an integer parameter, an integer beyond 64 bits, a number that is not finite, a
name with a NUL character — each refused naming the key."""

import unittest

import temple


class TestValues(unittest.TestCase):
    def assertRefused(self, exc, want, f, *args, **kwargs):
        with self.assertRaises(exc) as cm:
            f(*args, **kwargs)
        self.assertIn(want, str(cm.exception))

    def test_a_fraction_for_an_integer_is_refused(self):
        self.assertRefused(temple.TempleError, "m = 1.5, want an integer", temple.Agent, "rmax", m=1.5)
        self.assertRefused(temple.TempleError, "count = 1.5, want an integer", temple.make, "online-maze", count=1.5)
        with temple.Agent("rmax", m=2.0) as agent:  # a whole number written as a float is one
            self.assertFalse(agent.closed)

    def test_an_integer_beyond_64_bits_is_an_overflow(self):
        self.assertRefused(OverflowError, "count = 9223372036854775808 does not fit in 64 bits", temple.make, "online-maze",
                           count=2**63)
        self.assertRefused(OverflowError, "m = -9223372036854775809 does not fit", temple.Agent, "rmax", m=-2**63 - 1)

    def test_a_number_that_is_not_finite_names_its_key(self):
        self.assertRefused(temple.TempleError, "the settings: gamma = nan, want a finite number", temple.make, "online-maze",
                           gamma=float("nan"))
        self.assertRefused(temple.TempleError, "agent type q-learning: gamma = inf, want a finite number", temple.Agent,
                           "q-learning", gamma=float("inf"))

    def test_a_name_with_a_nul_is_refused(self):
        self.assertRefused(ValueError, "agent_type = 'rmax\\x00junk' holds a NUL character", temple.Agent, "rmax\x00junk")
        self.assertRefused(ValueError, "family = 'online-maze\\x00x' holds a NUL character", temple.make, "online-maze\x00x")
        self.assertRefused(ValueError, "name = 'A\\x00B' holds a NUL character", temple.Agent, "rmax", name="A\x00B")


if __name__ == "__main__":
    unittest.main()
