# examples/kprobes.boot - the `boottrace boot` / `boottrace run` options this
# example needs (tests/examples/10-boot.t passes them). Its probes fire
# on what early user space does (exec, getname, reads): it boots the
# systemd image, since the default image runs only the collector, which
# stops tracing before it runs anything.
--flavour systemd
