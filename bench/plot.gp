# Chart of the kernel suite: GB/s per input text (x) and implementation (bars),
# one panel per function, memcpy of the same bytes as a reference line.
# Reads the table utfx-bench writes with --plot-data (make bench does this):
#   gnuplot -e "datafile='build/bench/kernels.tsv'; outfile='build/bench/kernels.png'" \
#       bench/plot.gp
# Log scale: memcpy runs 10-100x faster than any transcoder on cached data.
if (!exists("datafile")) datafile = 'build/bench/kernels.tsv'
if (!exists("outfile")) outfile = 'build/bench/kernels.png'

funcs = system(sprintf("sed -n 's/^# funcs: //p' '%s'", datafile))
title_line = system(sprintf("sed -n '2s/^# //p' '%s'", datafile))
nfuncs = words(funcs)
ncols = int(system(sprintf("awk -F'\\t' '/^input/ {print NF; exit}' '%s'", datafile)))

set terminal pngcairo size 1200, 360 * nfuncs + 40 font ",10"
set output outfile
set datafile separator "\t"
set datafile missing "-"
set style data histogram
set style histogram clustered gap 1
set style fill solid 0.85 border -1
set boxwidth 0.9
set logscale y 10
set yrange [0.1:*]
set ylabel "GB/s of input"
set grid ytics
set key outside right top vertical
set xtics rotate by -30 noenhanced
set key noenhanced autotitle columnheader
set title noenhanced

set multiplot layout nfuncs, 1 title "utfx-bench kernel suite (".title_line.")" noenhanced
do for [i = 0:nfuncs - 1] {
  set title word(funcs, i + 1)
  # Column 2 is memcpy (drawn as a line); the bars are columns 3..ncols.
  plot for [c = 3:ncols] datafile index i using c:xtic(1) title columnheader(c), \
       datafile index i using 0:2 with linespoints lw 2 lc rgb "black" pt 7 ps 0.6 \
       title "memcpy"
}
unset multiplot
