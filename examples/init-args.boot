# examples/init-args.boot - the `boottrace boot` / `boottrace run` options this
# example needs (tests/examples/10-boot.t passes them). Its init.*
# argument is systemd's, and it counts early user space's execs: it
# boots the systemd image, since the default image runs only the
# collector, which stops tracing before it runs anything.
--flavour systemd
