/* cli/plot_none.c -- plot_draw_lines and plot_draw_roofline in a gpusim
** built without PLplot (CMake did not find it with pkg-config): every
** picture is refused with what to install. The sweep's data and the run's
** report do not depend on it.                                           */
#include "cli/plot.h"

#include <stdio.h>

#define PLOT_MISSING                                                                                              \
    "this gpusim was built without PLplot, so it draws no pictures: install libplplot-dev and "                 \
    "plplot-driver-cairo (Debian) and build again (CMake finds PLplot with pkg-config)"

bool plot_available(char *why, size_t cap)
{
    snprintf(why, cap, "%s", PLOT_MISSING);
    return false;
}

bool plot_draw_lines(const PlotFigure *f, const char *path, Diag *d)
{
    (void)f;
    diag_set(d, "--plot", 0, 0, "cannot draw %s: %s", path, PLOT_MISSING);
    return false;
}

bool plot_draw_roofline(const RooflineFigure *f, const char *path, Diag *d)
{
    (void)f;
    diag_set(d, "--roofline", 0, 0, "cannot draw %s: %s", path, PLOT_MISSING);
    return false;
}
