"""The host's side: tools, toolkits and the registry, putting the phases together."""
