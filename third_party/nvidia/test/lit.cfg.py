"""lit configuration of the NVIDIA-specific TLX tests: the main suite's (test/lit.cfg.py), rooted here.

Run with the main suite: `lit test/ third_party/nvidia/test/`.
"""

import os

lit_config.load_config(config, os.path.join(os.path.dirname(__file__), "..", "..", "..", "test", "lit.cfg.py"))
config.name = "TLX-NVIDIA"
config.test_source_root = os.path.dirname(__file__)
