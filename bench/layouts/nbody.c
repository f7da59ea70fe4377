/* bench/layouts/nbody.c — the n-body-style step of nbody.mos written by hand
 * in C, in the layout chosen at compile time:
 *   -DLAYOUT_AOS  one array of structs of 8 doubles (64 bytes a body)
 *   -DLAYOUT_SOA  one array per field
 *   -DLAYOUT_HOT  an array of {x, y, vx, vy, ax, ay} and one of {mass, charge}
 * Each step, each body feels a force towards the origin proportional to
 * charge / mass and is integrated (explicit Euler): it reads all 8 fields
 * and writes 6.  Same initial values, same arithmetic in the same order,
 * same result line as the Mosaic program.  Arguments: n (default 4000000),
 * steps (default 20).  bench/run-layouts.sh builds and runs it;
 * bench/README.md describes it. */
#include "common.h"

#if defined(LAYOUT_AOS)
struct body { double x, y, vx, vy, ax, ay, mass, charge; };

static void step(struct body *restrict b, long n, double dt)
{
    for (long i = 0; i < n; i++) {
        double k = b[i].charge / b[i].mass;
        b[i].ax = -k * b[i].x;
        b[i].ay = -k * b[i].y;
        b[i].vx += b[i].ax * dt;
        b[i].vy += b[i].ay * dt;
        b[i].x += b[i].vx * dt;
        b[i].y += b[i].vy * dt;
    }
}
#elif defined(LAYOUT_SOA)
static void step(double *restrict x, double *restrict y,
                 double *restrict vx, double *restrict vy,
                 double *restrict ax, double *restrict ay,
                 const double *restrict mass, const double *restrict charge,
                 long n, double dt)
{
    for (long i = 0; i < n; i++) {
        double k = charge[i] / mass[i];
        ax[i] = -k * x[i];
        ay[i] = -k * y[i];
        vx[i] += ax[i] * dt;
        vy[i] += ay[i] * dt;
        x[i] += vx[i] * dt;
        y[i] += vy[i] * dt;
    }
}
#elif defined(LAYOUT_HOT)
struct hot { double x, y, vx, vy, ax, ay; };
struct cold { double mass, charge; };

static void step(struct hot *restrict h, const struct cold *restrict c, long n, double dt)
{
    for (long i = 0; i < n; i++) {
        double k = c[i].charge / c[i].mass;
        h[i].ax = -k * h[i].x;
        h[i].ay = -k * h[i].y;
        h[i].vx += h[i].ax * dt;
        h[i].vy += h[i].ay * dt;
        h[i].x += h[i].vx * dt;
        h[i].y += h[i].vy * dt;
    }
}
#else
#error "define LAYOUT_AOS, LAYOUT_SOA or LAYOUT_HOT"
#endif

/* The initial values of Body.init in nbody.mos, field by field. */
#define INIT_X(i)      ((double)((i) % 1000) * 0.001 - 0.5)
#define INIT_Y(i)      ((double)((i) % 777) * 0.002 - 0.7)
#define INIT_VX(i)     ((double)((i) % 13) * 0.25 - 1.5)
#define INIT_VY(i)     ((double)((i) % 7) * 0.5 - 1.5)
#define INIT_MASS(i)   (1.0 + (double)((i) % 5))
#define INIT_CHARGE(i) ((double)((i) % 3) + 1.0)

int main(int argc, char **argv)
{
    long n = 4000000, steps = 20;
    args(argc, argv, &n, &steps);
    const double dt = 0.001;
    double t0, t1, sum = 0.0;
#if defined(LAYOUT_AOS)
    struct body *b = malloc(n * sizeof *b);
    if (!b) return 1;
    for (long i = 0; i < n; i++)
        b[i] = (struct body){INIT_X(i), INIT_Y(i), INIT_VX(i), INIT_VY(i),
                             0.0, 0.0, INIT_MASS(i), INIT_CHARGE(i)};
    t0 = now();
    for (long s = 0; s < steps; s++) step(b, n, dt);
    t1 = now();
    for (long i = 0; i < n; i++) sum += b[i].x + b[i].y;
#elif defined(LAYOUT_SOA)
    double *x = malloc(n * sizeof *x), *y = malloc(n * sizeof *y);
    double *vx = malloc(n * sizeof *vx), *vy = malloc(n * sizeof *vy);
    double *ax = malloc(n * sizeof *ax), *ay = malloc(n * sizeof *ay);
    double *mass = malloc(n * sizeof *mass), *charge = malloc(n * sizeof *charge);
    if (!x || !y || !vx || !vy || !ax || !ay || !mass || !charge) return 1;
    for (long i = 0; i < n; i++) {
        x[i] = INIT_X(i); y[i] = INIT_Y(i); vx[i] = INIT_VX(i); vy[i] = INIT_VY(i);
        ax[i] = 0.0; ay[i] = 0.0; mass[i] = INIT_MASS(i); charge[i] = INIT_CHARGE(i);
    }
    t0 = now();
    for (long s = 0; s < steps; s++) step(x, y, vx, vy, ax, ay, mass, charge, n, dt);
    t1 = now();
    for (long i = 0; i < n; i++) sum += x[i] + y[i];
#else
    struct hot *h = malloc(n * sizeof *h);
    struct cold *c = malloc(n * sizeof *c);
    if (!h || !c) return 1;
    for (long i = 0; i < n; i++) {
        h[i] = (struct hot){INIT_X(i), INIT_Y(i), INIT_VX(i), INIT_VY(i), 0.0, 0.0};
        c[i] = (struct cold){INIT_MASS(i), INIT_CHARGE(i)};
    }
    t0 = now();
    for (long s = 0; s < steps; s++) step(h, c, n, dt);
    t1 = now();
    for (long i = 0; i < n; i++) sum += h[i].x + h[i].y;
#endif
    report("nbody", n, steps, sum, t1 - t0);
    return 0;
}
