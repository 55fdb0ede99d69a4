"""LLM port and OpenAI-compatible chat client."""
