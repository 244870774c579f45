/* viz/canvas.c -- the drawing primitives (see canvas.h). */
#include "viz/canvas.h"

#include <stdarg.h>
#include <string.h>

const CanvasFont FONT_SPEC[F_COUNT] = {
    [F_TITLE] = { "DejaVuSans-Bold.ttf", 28 }, [F_HEAD] = { "DejaVuSans-Bold.ttf", 21 },
    [F_BODY] = { "DejaVuSans.ttf", 18 },       [F_SMALL] = { "DejaVuSans.ttf", 14 },
    [F_MONO] = { "DejaVuSansMono.ttf", 17 },   [F_BIG] = { "DejaVuSans-Bold.ttf", 40 },
};

void canvas_close_fonts(VizDraw *d)
{
    for (int i = 0; i < F_COUNT; i++) {
        if (d->f[i]) TTF_CloseFont(d->f[i]);
        d->f[i] = NULL;
    }
}

bool canvas_open_fonts(VizDraw *d, double scale, char *err, size_t cap)
{
    canvas_close_fonts(d);
    for (int i = 0; i < F_COUNT; i++) {
        char path[1200];
        snprintf(path, sizeof path, "%s/%s", d->dir, FONT_SPEC[i].file);
        int px = (int)(FONT_SPEC[i].px * scale + 0.5);
        d->px[i] = px < VDRAW_MIN_FONT_PX ? VDRAW_MIN_FONT_PX : px;
        d->f[i] = TTF_OpenFont(path, d->px[i]);
        if (!d->f[i]) {
            if (err) snprintf(err, cap, "cannot open font %s: %s", path, TTF_GetError());
            canvas_close_fonts(d);
            return false;
        }
    }
    d->scale = scale;
    return true;
}

/* ------------------------------------------------------------ primitives */

int canvas_s(const VizDraw *d, double v) { return (int)(v * d->s + 0.5); }

void canvas_fill(VizDraw *d, int x, int y, int w, int h, uint32_t rgb)
{
    if (w <= 0 || h <= 0) return;
    SDL_Rect r = { x, y, w, h };
    SDL_FillRect(d->dst, &r, SDL_MapRGB(d->dst->format, rgb >> 16 & 255, rgb >> 8 & 255, rgb & 255));
}

void canvas_frame(VizDraw *d, int x, int y, int w, int h, int t, uint32_t rgb)
{
    canvas_fill(d, x, y, w, t, rgb);
    canvas_fill(d, x, y + h - t, w, t, rgb);
    canvas_fill(d, x, y, t, h, rgb);
    canvas_fill(d, x + w - t, y, t, h, rgb);
}

int canvas_text_w(VizDraw *d, int font, const char *s)
{
    int w = 0, h = 0;
    if (*s) TTF_SizeUTF8(d->f[font], s, &w, &h);
    return w;
}

int canvas_font_h(VizDraw *d, int font) { return TTF_FontLineSkip(d->f[font]); }

int canvas_text(VizDraw *d, int font, int x, int y, Align al, uint32_t rgb, const char *fmt, ...)
{
    char buf[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(buf, sizeof buf, fmt, ap);
    va_end(ap);
    if (!buf[0]) return 0;
    d->used[font] = true;
    if (d->log) fprintf(d->log, "text: %s: %s\n", d->where, buf);
    SDL_Color c = { rgb >> 16 & 255, rgb >> 8 & 255, rgb & 255, 255 };
    SDL_Surface *t = TTF_RenderUTF8_Blended(d->f[font], buf, c);
    if (!t) return 0;
    SDL_Rect r = { x, y, t->w, t->h };
    if (al == AL_CENTER) r.x -= t->w / 2;
    else if (al == AL_RIGHT) r.x -= t->w;
    SDL_BlitSurface(t, NULL, d->dst, &r);
    int w = t->w;
    SDL_FreeSurface(t);
    return w;
}

/* 1234567 -> "1,234,567" */
const char *canvas_commas(char *buf, size_t cap, uint64_t v)
{
    char raw[32];
    int n = snprintf(raw, sizeof raw, "%llu", (unsigned long long)v), o = 0;
    for (int i = 0; i < n && (size_t)o + 2 < cap; i++) {
        if (i && (n - i) % 3 == 0) buf[o++] = ',';
        buf[o++] = raw[i];
    }
    buf[o] = 0;
    return buf;
}

/* Panel background and title; returns the y below the title. */
int canvas_panel(VizDraw *d, const SDL_Rect *r, const char *title)
{
    canvas_fill(d, r->x, r->y, r->w, r->h, C_PANEL);
    canvas_frame(d, r->x, r->y, r->w, r->h, 1, C_EDGE);
    canvas_text(d, F_HEAD, r->x + canvas_s(d, 12), r->y + canvas_s(d, 6), AL_LEFT, C_TEXT, "%s", title);
    return r->y + canvas_s(d, 6) + canvas_font_h(d, F_HEAD) + canvas_s(d, 2);
}
