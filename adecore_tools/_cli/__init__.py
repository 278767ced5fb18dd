"""The command line, `adecore-tools` (also `python -m adecore_tools`): inspect, call and serve.

`import adecore_tools` never imports it: only the command does.
"""
