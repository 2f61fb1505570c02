"""Developer tooling: the code generator, the build driver, build ids."""
