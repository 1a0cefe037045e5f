"""dp-derive, checking layer: the claim registry, the checker, paper reproduction and the CLI."""
