# kernel/kbuild-progress.awk - where a kernel build is, read from its log.
#
#   awk [-v objects_total=N] [-v modules_total=M] [-v count=objects] \
#       -f kernel/kbuild-progress.awk BUILD.LOG
#
# BUILD.LOG is kernel/build.sh's log: kbuild's short lines ("  CC      x.o")
# of every run in the build directory, each resumed run after a line
# "$ # resumed at TIME".  Prints one line, "PHASE<TAB>DETAIL" (the form
# bt_progress shows), for the furthest step the build has reached:
#
#   compiling          N [of ~objects_total] objects compiled (CC and AS,
#                      built-in and modular), over every run
#   linking modules    .ko files linked, each counted once over every run
#                      (a resumed build does not link one again), of
#                      modules_total (the lines of obj/modules.order)
#   installing modules .ko files copied by modules_install (bindeb-pkg;
#                      it signs each one too with MODULE_SIG_ALL)
#   preparing packages after depmod, before the first package: builddeb's
#                      silent steps (the -dbg split of every module)
#   signing modules    .ko files signed again after depmod (builddeb's
#                      modules_sign of the modules the -dbg split stripped)
#   packaging NAME     dpkg-deb building the package NAME
#
# The last four restart with each run: bindeb-pkg redoes them all.
# With -v count=objects, prints only the number of objects compiled (what
# build.sh records as objects=).

function pct(n, total)
{
	return n >= total ? 99 : int(n * 100 / total)
}

function of(n, total, what)
{
	if (total > 0)
		return sprintf("%d of %s%d %s (%d%%)", n, what == "objects" ? "~" : "",
			       total, what, pct(n, total))
	return sprintf("%d %s", n, what)
}

BEGIN {
	phase = 0
}

/^\$ # resumed at / {
	if (phase > 1)
		phase = 1
	installed = signed = 0
	pkg = ""
	next
}

/^  (CC|AS)( \[M\])? / {
	objects++
	next
}

/^  LD \[M\] .*\.ko$/ {
	if (!($3 in linked)) {
		linked[$3] = 1
		nlinked++
	}
	if (phase < 1)
		phase = 1
	next
}

/^  INSTALL .*\.ko$/ {
	installed++
	if (phase < 2)
		phase = 2
	next
}

/^  SIGN .*\.ko$/ {
	signed++
	if (phase >= 3 && phase < 5)
		phase = 4
	next
}

/^  DEPMOD / {
	signed = 0
	if (phase < 3)
		phase = 3
	next
}

/^dpkg-deb: building package '/ {
	pkg = $4
	gsub("'", "", pkg)
	phase = 5
	next
}

END {
	if (count == "objects") {
		print objects + 0
		exit
	}
	if (phase == 0)
		printf "compiling\t%s\n", of(objects, objects_total + 0, "objects")
	else if (phase == 1)
		printf "linking modules\t%s\n", of(nlinked, modules_total + 0, "modules")
	else if (phase == 2)
		printf "installing modules\t%s\n", of(installed, modules_total + 0, "modules")
	else if (phase == 3)
		printf "preparing packages\t(debug symbols, headers)\n"
	else if (phase == 4)
		printf "signing modules\t%s\n", of(signed, modules_total + 0, "modules")
	else
		printf "packaging %s\n", pkg
}
