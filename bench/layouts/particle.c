/* bench/layouts/particle.c — the particle step of particle.mos written by
 * hand in C, in the layout chosen at compile time:
 *   -DLAYOUT_AOS  one array of structs of 8 doubles (64 bytes an object)
 *   -DLAYOUT_SOA  one array per field
 *   -DLAYOUT_HOT  an array of {x, vx} and an array of the 6 other fields
 * The step reads vx and x and writes x: 2 of the 8 fields.  Same
 * initial values, same arithmetic in the same order, same result line as the
 * Mosaic program.  Arguments: n (default 4000000), steps (default 50).
 * bench/run-layouts.sh builds and runs it; bench/README.md describes it. */
#include "common.h"

#if defined(LAYOUT_AOS)
struct particle { double x, y, vx, vy, ax, ay, mass, charge; };

static void step(struct particle *restrict p, long n, double dt)
{
    for (long i = 0; i < n; i++) p[i].x += p[i].vx * dt;
}
#elif defined(LAYOUT_SOA)
static void step(double *restrict x, const double *restrict vx, long n, double dt)
{
    for (long i = 0; i < n; i++) x[i] += vx[i] * dt;
}
#elif defined(LAYOUT_HOT)
struct hot { double x, vx; };
struct cold { double y, vy, ax, ay, mass, charge; };

static void step(struct hot *restrict h, long n, double dt)
{
    for (long i = 0; i < n; i++) h[i].x += h[i].vx * dt;
}
#else
#error "define LAYOUT_AOS, LAYOUT_SOA or LAYOUT_HOT"
#endif

/* The initial values of Particle.init in particle.mos, field by field. */
#define INIT_X(i)      ((double)((i) % 1000) * 0.001)
#define INIT_Y(i)      ((double)((i) % 777) * 0.002)
#define INIT_VX(i)     ((double)((i) % 13) * 0.25 - 1.5)
#define INIT_VY(i)     ((double)((i) % 7) * 0.5 - 1.5)
#define INIT_MASS(i)   (1.0 + (double)((i) % 5))
#define INIT_CHARGE(i) ((double)((i) % 3) - 1.0)

int main(int argc, char **argv)
{
    long n = 4000000, steps = 50;
    args(argc, argv, &n, &steps);
    const double dt = 0.001;
    double t0, t1, sum = 0.0;
#if defined(LAYOUT_AOS)
    struct particle *p = malloc(n * sizeof *p);
    if (!p) return 1;
    for (long i = 0; i < n; i++)
        p[i] = (struct particle){INIT_X(i), INIT_Y(i), INIT_VX(i), INIT_VY(i),
                                 0.0, 0.0, INIT_MASS(i), INIT_CHARGE(i)};
    t0 = now();
    for (long s = 0; s < steps; s++) step(p, n, dt);
    t1 = now();
    for (long i = 0; i < n; i++) sum += p[i].x;
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
    for (long s = 0; s < steps; s++) step(x, vx, n, dt);
    t1 = now();
    for (long i = 0; i < n; i++) sum += x[i];
#else
    struct hot *h = malloc(n * sizeof *h);
    struct cold *c = malloc(n * sizeof *c);
    if (!h || !c) return 1;
    for (long i = 0; i < n; i++) {
        h[i] = (struct hot){INIT_X(i), INIT_VX(i)};
        c[i] = (struct cold){INIT_Y(i), INIT_VY(i), 0.0, 0.0, INIT_MASS(i), INIT_CHARGE(i)};
    }
    t0 = now();
    for (long s = 0; s < steps; s++) step(h, n, dt);
    t1 = now();
    for (long i = 0; i < n; i++) sum += h[i].x;
#endif
    report("particle", n, steps, sum, t1 - t0);
    return 0;
}
