#!/bin/sh
# pre-trigger hook (sourced by dracut): hand over to the collector, which
# checks boottrace.collect= itself and returns at once when it is absent.
/usr/bin/boottrace-collect
