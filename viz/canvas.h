/* viz/canvas.h -- the visualizer's drawing primitives on a software
** surface: its palette, fonts (DejaVu via SDL2_ttf, never below
** VDRAW_MIN_FONT_PX), filled and framed rectangles, blended text and a
** panel's frame and title; sizes in design pixels (1600x960) times the
** layout's scale (canvas_s). Shared by viz/draw.c (the panels, the frame)
** and viz/drawmem.c (the memory panels, the source overlay).              */
#ifndef GPUSIM_VIZ_CANVAS_H
#define GPUSIM_VIZ_CANVAS_H

#include <SDL.h>
#include <SDL_ttf.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "viz/draw.h"

/* ------------------------------------------------------------ palette */

#define C_BG       0x16161cu
#define C_PANEL    0x22222cu
#define C_EDGE     0x3a3a48u
#define C_TEXT     0xf2f2f2u
#define C_DIM      0xa0a0b0u
#define C_FAINT    0x50505eu
#define C_CELL_OFF 0x34343eu
#define C_SELECT   0xffffffu
#define C_GOOD     0x2ecc71u
#define C_WARN     0xffa931u
#define C_BAD      0xff4b3eu
#define C_LOAD     0x4fa3ffu
#define C_STORE    0xffa94fu
#define C_CURSOR   0xffffffu
#define C_ATOMIC   0xd36bffu

/* ------------------------------------------------------------ fonts */

enum { F_TITLE, F_HEAD, F_BODY, F_SMALL, F_MONO, F_BIG, F_COUNT };
typedef struct {
    const char *file;
    int         px;
} CanvasFont;
extern const CanvasFont FONT_SPEC[F_COUNT];
/* No text smaller than this many pixels, whatever the scale: what a
** projected 1024x768 picture still shows from the back of a room. */
#define VDRAW_MIN_FONT_PX 13

#define VDRAW_MAX_COLUMNS 8192 /* timeline pixel columns */

struct VizDraw {
    char         dir[1024];
    TTF_Font    *f[F_COUNT];
    int          px[F_COUNT]; /* their sizes                                */
    double       scale;      /* the fonts' scale                            */
    SDL_Surface *dst;        /* during vdraw_frame                          */
    double       s;          /* current layout scale                        */
    uint64_t     pis[VREC_BUCKETS + 1], pwc[VREC_BUCKETS + 1]; /* timeline prefix sums */
    double       ipc[VDRAW_MAX_COLUMNS], occ[VDRAW_MAX_COLUMNS]; /* per pixel column  */
    FILE        *log;        /* vdraw_log                                   */
    const char  *where;      /* the panel being drawn, for the log          */
    int          lane_w, lane_h; /* the smallest lane cell drawn this frame */
    int          font_min, font_max; /* px of the fonts used this frame     */
    bool         used[F_COUNT];
};

typedef enum { AL_LEFT, AL_CENTER, AL_RIGHT } Align;

/* (Re)opens the fonts from d->dir at this scale; false, err filled, when one fails. */
bool canvas_open_fonts(VizDraw *d, double scale, char *err, size_t cap);
void canvas_close_fonts(VizDraw *d);

int canvas_s(const VizDraw *d, double v); /* design pixels at the current scale */
void canvas_fill(VizDraw *d, int x, int y, int w, int h, uint32_t rgb);
void canvas_frame(VizDraw *d, int x, int y, int w, int h, int t, uint32_t rgb);
int canvas_text_w(VizDraw *d, int font, const char *s);
int canvas_font_h(VizDraw *d, int font);
/* Draws the formatted text with its top at y, aligned on x (logged when
** d->log is set); returns its width. */
int canvas_text(VizDraw *d, int font, int x, int y, Align al, uint32_t rgb, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));
/* 1234567 -> "1,234,567" */
const char *canvas_commas(char *buf, size_t cap, uint64_t v);
/* Panel background and title; returns the y below the title. */
int canvas_panel(VizDraw *d, const SDL_Rect *r, const char *title);

#endif
