"""What a machine is: its fingerprint (the key registry), how it is probed, and its facts in words.
They import the base modules and no layer."""
