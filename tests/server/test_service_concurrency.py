"""Several clients at once: reads run beside writes, writes stay serialised and durable;
every request answered, none lost."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

from service_live import Server, new_key

CLIENTS = 8
ROUNDS = 6


def test_concurrent_clients_add_and_search_without_errors_or_losses(server: Server) -> None:
    keys = {f"conc{i}": new_key(server.db, "--user", f"conc{i}") for i in range(CLIENTS)}

    def client(user: str) -> list[int]:
        codes: list[int] = []
        with server.client(keys[user]) as c:
            for n in range(ROUNDS):
                text = f"Round {n}: I bought a {user} kettle number {n}."
                codes.append(
                    c.post(
                        "/v1/memories", json={"messages": [{"id": f"{user}-{n}", "content": text}]}
                    ).status_code
                )
                codes.append(c.post("/v1/search", json={"query": "kettle"}).status_code)
                codes.append(
                    c.post("/v1/context", json={"query": "kettle", "max_tokens": 300}).status_code
                )
        return codes

    with ThreadPoolExecutor(CLIENTS) as pool:
        results = dict(zip(keys, pool.map(client, keys), strict=True))
    for codes in results.values():
        assert set(codes) <= {200, 201}, codes
    for user, key in keys.items():
        with server.client(key) as c:
            turns = c.get("/v1/turns", params={"limit": 100}).json()["turns"]
        assert sorted(t["external_id"] for t in turns) == sorted(
            f"{user}-{n}" for n in range(ROUNDS)
        )
        assert all(user in t["text"] for t in turns)  # no turn of another client
