"""What `dualtrace serve` prints: a pasteable MCP config that names whose memory it uses."""

from __future__ import annotations

import json

from dualtrace.config import ServiceConfig
from dualtrace.server.serve import demo_user, urls


def test_dev_mode_config_names_the_user_in_the_url() -> None:
    config = ServiceConfig(dev=True)
    server = json.loads(urls(config, demo_user()).mcp_config)["mcpServers"]["dualtrace"]
    assert server["url"].endswith(f"/mcp?user_id={demo_user()}")
    assert "headers" not in server


def test_keyed_config_sends_the_key_instead() -> None:
    server = json.loads(urls(ServiceConfig()).mcp_config)["mcpServers"]["dualtrace"]
    assert server["url"].endswith("/mcp")
    assert server["headers"]["Authorization"].startswith("Bearer")
