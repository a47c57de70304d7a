//! Whole-History Rating (Rémi Coulom, "Whole-History Rating: A Bayesian
//! Rating System for Players of Time-Varying Strength", 2008), with the
//! year as the time step.
//!
//! A player has one rating (natural scale: the log-odds of a win between
//! equals is the difference) per year in which they played, a *node*.
//! Black's expected score in a game is `σ(r_black − r_white + h)`, `h`
//! the first-move effect, fitted with the ratings. Draws count half a
//! point: a game of target `t` (1, ½, 0, or a result softened by the disc
//! margin) adds `t·ln σ(d) + (1 − t)·ln σ(−d)` to the log-likelihood.
//! The prior: a player's first node is `N(0, σ₀²)`, and between nodes
//! `Δt` years apart the rating walks as a Wiener process, the step
//! `N(0, w²·Δt)`; `h` has the weak prior `N(0, 1)`.
//!
//! **The fit.** The log-posterior is concave, its maximum found by Newton's
//! method on all the nodes and `h` at once, each Newton system solved by
//! conjugate gradients preconditioned by the players' tri-diagonal blocks.
//! Coulom's algorithm is a Newton step on one player's tri-diagonal block
//! at a time, the others fixed (block Gauss–Seidel), repeated until it
//! settles: the same blocks, but without the conjugate directions, whose
//! convergence slows down on long chains of players linked by a few games
//! (and the first-move effect couples every game). Here each Newton step
//! is the exact one of the whole posterior (to the tolerance of the inner
//! solve), so that a few steps reach the maximum from any start, and one or
//! two from the previous fit after a tournament is added (the walk forward
//! of the validation). A backtracking line search keeps every step uphill.
//!
//! **Uncertainty.** As in the paper, a node's variance is the diagonal of
//! the inverse of its player's own block of the negative Hessian (the
//! opponents held fixed), computed in linear time from the tri-diagonal's
//! forward and backward pivots.

/// The prior, in natural units.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Prior {
    /// The Wiener variance per year, `w²`.
    pub(crate) wiener: f64,
    /// The variance of a player's first rating, `σ₀²`.
    pub(crate) first: f64,
}

/// The fit of the ratings stops when every component of the
/// log-posterior's gradient is below this: a rating is then within about
/// 10⁻⁶ of the maximum (a node's curvature is at least its prior's,
/// `1/σ₀²`, about 0.5), 0.0002 Elo points.
pub(crate) const TOLERANCE: f64 = 1e-6;

/// The tolerance of the walk forward's refits: 10⁻⁴, about 0.02 Elo
/// points, far below what changes a prediction (the validation's
/// log-losses agree with [`TOLERANCE`]'s to four decimals), and a third
/// fewer Newton steps.
pub(crate) const WALK_TOLERANCE: f64 = 1e-4;

/// A bound on the Newton steps of one fit (seven from zero on the whole
/// archive).
const MAX_NEWTON_STEPS: usize = 100;

/// The variance of the first-move effect's prior.
const H_VARIANCE: f64 = 1.0;

/// The model: its nodes, its games and the current ratings.
#[derive(Clone, Debug, Default)]
pub(crate) struct Model {
    /// Per player, its nodes in year order.
    pub(crate) player_nodes: Vec<Vec<u32>>,
    /// Per node, its year.
    pub(crate) node_year: Vec<u16>,
    /// Per pairing (a black node and a white node: the games of a year
    /// between two players with the same colours, which share their
    /// expected score): black's and white's node, the number of games and
    /// the sum of their targets.
    black: Vec<u32>,
    white: Vec<u32>,
    count: Vec<f64>,
    target: Vec<f64>,
    /// The pairing of each (black node, white node).
    pairings: std::collections::HashMap<(u32, u32), u32>,
    /// Per game added, its pairing.
    game_pairing: Vec<u32>,
    /// Per node, its rating.
    pub(crate) r: Vec<f64>,
    /// The first-move effect.
    pub(crate) h: f64,
}

/// The Newton system at the current ratings: the negative Hessian (its
/// parts) and the gradient.
#[derive(Clone, Debug, Default)]
struct Work {
    /// Per pairing, `n·p(1 − p)`.
    curvature: Vec<f64>,
    /// Per node: the prior's diagonal and the coupling to the next node
    /// of its player (0 for a player's last node).
    prior_diag: Vec<f64>,
    prior_next: Vec<f64>,
    /// Per node (and `h` last): the diagonal with the games; per node the
    /// forward pivot of its player's block.
    diag: Vec<f64>,
    pivot: Vec<f64>,
    /// The gradient (nodes, then `h`).
    grad: Vec<f64>,
}

/// `ln(1 + e^x)`, without overflow.
fn softplus(x: f64) -> f64 {
    if x <= 0.0 {
        x.exp().ln_1p()
    } else {
        x + (-x).exp().ln_1p()
    }
}

/// `σ(x)`.
pub(crate) fn sigmoid(x: f64) -> f64 {
    if x >= 0.0 {
        1.0 / (1.0 + (-x).exp())
    } else {
        let e = x.exp();
        e / (1.0 + e)
    }
}

impl Model {
    /// The number of nodes (player-years).
    pub(crate) fn nodes(&self) -> usize {
        self.r.len()
    }

    /// The number of pairings.
    fn pairings(&self) -> usize {
        self.target.len()
    }

    /// The node of `player` in `year`, made when it does not exist yet
    /// (its rating starting from the nearest earlier node's, or 0).
    pub(crate) fn node(&mut self, player: u32, year: u16) -> u32 {
        let p = player as usize;
        if self.player_nodes.len() <= p {
            self.player_nodes.resize_with(p + 1, Vec::new);
        }
        let nodes = &self.player_nodes[p];
        let at = nodes.partition_point(|&n| self.node_year[n as usize] < year);
        if let Some(&n) = nodes.get(at)
            && self.node_year[n as usize] == year
        {
            return n;
        }
        let start = if at > 0 {
            self.r[nodes[at - 1] as usize]
        } else {
            nodes.first().map_or(0.0, |&n| self.r[n as usize])
        };
        let n = u32::try_from(self.r.len()).expect("fewer than 2^32 nodes");
        self.node_year.push(year);
        self.r.push(start);
        self.player_nodes[p].insert(at, n);
        n
    }

    /// The node of `player` in `year` or the nearest before it, if any.
    pub(crate) fn latest_node(&self, player: u32, year: u16) -> Option<u32> {
        let nodes = self.player_nodes.get(player as usize)?;
        let at = nodes.partition_point(|&n| self.node_year[n as usize] <= year);
        at.checked_sub(1).map(|i| nodes[i])
    }

    /// Black's and white's nodes in game `g` (in the order added).
    pub(crate) fn game_nodes(&self, g: usize) -> (u32, u32) {
        let k = self.game_pairing[g] as usize;
        (self.black[k], self.white[k])
    }

    /// Adds a game of `year`: black, white and black's target score.
    pub(crate) fn add_game(&mut self, black: u32, white: u32, year: u16, target: f64) {
        let b = self.node(black, year);
        let w = self.node(white, year);
        let next = u32::try_from(self.target.len()).expect("fewer than 2^32 pairings");
        let k = *self.pairings.entry((b, w)).or_insert(next);
        if k == next {
            self.black.push(b);
            self.white.push(w);
            self.count.push(0.0);
            self.target.push(0.0);
        }
        self.count[k as usize] += 1.0;
        self.target[k as usize] += target;
        self.game_pairing.push(k);
    }

    /// The log-posterior at ratings `r` and effect `h` (up to a constant).
    fn log_posterior(&self, prior: &Prior, r: &[f64], h: f64) -> f64 {
        let mut sum = 0.0;
        for k in 0..self.pairings() {
            let d = r[self.black[k] as usize] - r[self.white[k] as usize] + h;
            // Σ t·ln σ(d) + (1 − t)·ln σ(−d), with ln σ(−d) = ln σ(d) − d.
            sum -= self.count[k] * softplus(-d) + (self.count[k] - self.target[k]) * d;
        }
        for nodes in &self.player_nodes {
            let Some(&first) = nodes.first() else {
                continue;
            };
            sum -= r[first as usize].powi(2) / (2.0 * prior.first);
            for pair in nodes.windows(2) {
                let (a, b) = (pair[0] as usize, pair[1] as usize);
                let dt = f64::from(self.node_year[b] - self.node_year[a]);
                sum -= (r[b] - r[a]).powi(2) / (2.0 * prior.wiener * dt);
            }
        }
        sum - h * h / (2.0 * H_VARIANCE)
    }

    /// The prior's part of the negative Hessian: per node its diagonal and
    /// the coupling to the player's next node.
    fn prior_blocks(&self, prior: &Prior, work: &mut Work) {
        let n = self.nodes();
        work.prior_diag.clear();
        work.prior_diag.resize(n, 0.0);
        work.prior_next.clear();
        work.prior_next.resize(n, 0.0);
        for nodes in &self.player_nodes {
            let Some(&first) = nodes.first() else {
                continue;
            };
            work.prior_diag[first as usize] += 1.0 / prior.first;
            for pair in nodes.windows(2) {
                let (a, b) = (pair[0] as usize, pair[1] as usize);
                let dt = f64::from(self.node_year[b] - self.node_year[a]);
                let k = 1.0 / (prior.wiener * dt);
                work.prior_diag[a] += k;
                work.prior_diag[b] += k;
                work.prior_next[a] = -k;
            }
        }
    }

    /// The gradient of the log-posterior (nodes, then `h` last) and the
    /// games' curvatures `p(1 − p)` and the blocks' diagonals.
    fn gradient(&self, prior: &Prior, work: &mut Work) {
        let n = self.nodes();
        work.grad.clear();
        work.grad.resize(n + 1, 0.0);
        work.diag.clear();
        work.diag.extend_from_slice(&work.prior_diag);
        work.diag.push(1.0 / H_VARIANCE);
        work.curvature.clear();
        for k in 0..self.pairings() {
            let (b, w) = (self.black[k] as usize, self.white[k] as usize);
            let p = sigmoid(self.r[b] - self.r[w] + self.h);
            let e = self.target[k] - self.count[k] * p;
            let c = self.count[k] * p * (1.0 - p);
            work.curvature.push(c);
            work.grad[b] += e;
            work.grad[w] -= e;
            work.grad[n] += e;
            work.diag[b] += c;
            work.diag[w] += c;
            work.diag[n] += c;
        }
        for nodes in &self.player_nodes {
            let Some(&first) = nodes.first() else {
                continue;
            };
            work.grad[first as usize] -= self.r[first as usize] / prior.first;
            for pair in nodes.windows(2) {
                let (a, b) = (pair[0] as usize, pair[1] as usize);
                let f = -work.prior_next[a] * (self.r[b] - self.r[a]);
                work.grad[a] += f;
                work.grad[b] -= f;
            }
        }
        work.grad[n] -= self.h / H_VARIANCE;
    }

    /// `out = A·v`, `A` the negative Hessian at the curvatures of `work`.
    fn hessian_times(&self, work: &Work, v: &[f64], out: &mut [f64]) {
        let n = self.nodes();
        for i in 0..n {
            out[i] = work.prior_diag[i] * v[i];
        }
        for nodes in &self.player_nodes {
            for pair in nodes.windows(2) {
                let (a, b) = (pair[0] as usize, pair[1] as usize);
                let k = work.prior_next[a];
                out[a] += k * v[b];
                out[b] += k * v[a];
            }
        }
        let mut h = v[n] / H_VARIANCE;
        for k in 0..self.pairings() {
            let (b, w) = (self.black[k] as usize, self.white[k] as usize);
            let u = work.curvature[k] * (v[b] - v[w] + v[n]);
            out[b] += u;
            out[w] -= u;
            h += u;
        }
        out[n] = h;
    }

    /// The forward pivots of every player's tri-diagonal block.
    fn factor_blocks(&self, work: &mut Work) {
        work.pivot.clear();
        work.pivot.resize(self.nodes(), 0.0);
        for nodes in &self.player_nodes {
            let mut previous: Option<usize> = None;
            for &node in nodes {
                let i = node as usize;
                work.pivot[i] = match previous {
                    None => work.diag[i],
                    Some(a) => work.diag[i] - work.prior_next[a].powi(2) / work.pivot[a],
                };
                previous = Some(i);
            }
        }
    }

    /// `z = M⁻¹·r`, `M` the block-diagonal preconditioner (the players'
    /// tri-diagonal blocks and `h`'s diagonal).
    fn precondition(&self, work: &Work, r: &[f64], z: &mut [f64]) {
        let n = self.nodes();
        for nodes in &self.player_nodes {
            // Forward: L·y = r, y in z.
            let mut previous: Option<usize> = None;
            for &node in nodes {
                let i = node as usize;
                z[i] = match previous {
                    None => r[i],
                    Some(a) => r[i] - work.prior_next[a] / work.pivot[a] * z[a],
                };
                previous = Some(i);
            }
            // Backward: D·Lᵀ·x = y.
            let mut next: Option<usize> = None;
            for &node in nodes.iter().rev() {
                let i = node as usize;
                z[i] = match next {
                    None => z[i] / work.pivot[i],
                    Some(b) => (z[i] - work.prior_next[i] * z[b]) / work.pivot[i],
                };
                next = Some(i);
            }
        }
        z[n] = r[n] / work.diag[n];
    }

    /// Solves `A·step = grad` by preconditioned conjugate gradients, to a
    /// residual `tolerance` times the gradient's norm.
    fn solve(&self, work: &Work, tolerance: f64) -> Vec<f64> {
        let len = self.nodes() + 1;
        let mut step = vec![0.0; len];
        let mut resid = work.grad.clone();
        let mut z = vec![0.0; len];
        let mut product = vec![0.0; len];
        self.precondition(work, &resid, &mut z);
        let mut dir = z.clone();
        let goal = tolerance * dot(&work.grad, &work.grad).sqrt();
        let mut rz = dot(&resid, &z);
        for _ in 0..len.min(1000) {
            if dot(&resid, &resid).sqrt() <= goal {
                break;
            }
            self.hessian_times(work, &dir, &mut product);
            let alpha = rz / dot(&dir, &product);
            for i in 0..len {
                step[i] += alpha * dir[i];
                resid[i] -= alpha * product[i];
            }
            self.precondition(work, &resid, &mut z);
            let next = dot(&resid, &z);
            let beta = next / rz;
            rz = next;
            for i in 0..len {
                dir[i] = z[i] + beta * dir[i];
            }
        }
        step
    }

    /// Fits the ratings (from the current ones, a warm start) to the
    /// maximum of the posterior: Newton steps until every component of the
    /// gradient is below `tolerance` (see [`TOLERANCE`]), each solved to a relative
    /// residual of `min(10⁻², ‖g‖)` (an inexact Newton method, whose
    /// convergence stays superlinear). Returns the Newton steps taken.
    pub(crate) fn fit(&mut self, prior: &Prior, tolerance: f64) -> usize {
        let mut work = Work::default();
        self.prior_blocks(prior, &mut work);
        self.gradient(prior, &mut work);
        for step in 0..MAX_NEWTON_STEPS {
            let largest = work.grad.iter().fold(0.0f64, |m, g| m.max(g.abs()));
            if largest < tolerance {
                return step;
            }
            self.factor_blocks(&mut work);
            let norm = dot(&work.grad, &work.grad).sqrt();
            let newton = self.solve(&work, norm.min(1e-2));
            let (start_r, start_h) = (self.r.clone(), self.h);
            self.shift(&start_r, start_h, &newton, 1.0);
            self.gradient(prior, &mut work);
            // Along the step the log-posterior is concave: when it still
            // rises at the full step, the full step went uphill (the usual
            // case, which costs no evaluation of the log-posterior).
            if dot(&work.grad, &newton) >= 0.0 {
                continue;
            }
            // Else backtracking: the step halved until uphill.
            let before = self.log_posterior(prior, &start_r, start_h);
            let mut scale = 1.0;
            while self.log_posterior(prior, &self.r, self.h) < before - 1e-12 * before.abs()
                && scale > 1e-6
            {
                scale /= 2.0;
                self.shift(&start_r, start_h, &newton, scale);
            }
            self.gradient(prior, &mut work);
        }
        MAX_NEWTON_STEPS
    }

    /// Sets the ratings to `r + scale·step` and `h` likewise.
    fn shift(&mut self, r: &[f64], h: f64, step: &[f64], scale: f64) {
        for ((to, from), s) in self.r.iter_mut().zip(r).zip(step) {
            *to = from + scale * s;
        }
        self.h = h + scale * step[r.len()];
    }

    /// Each node's variance: the diagonal of the inverse of its player's
    /// block of the negative Hessian at the current ratings.
    pub(crate) fn variances(&self, prior: &Prior) -> Vec<f64> {
        let mut work = Work::default();
        self.prior_blocks(prior, &mut work);
        self.gradient(prior, &mut work);
        self.factor_blocks(&mut work);
        let mut var = vec![0.0; self.nodes()];
        for nodes in &self.player_nodes {
            // Backward pivots e; the inverse's diagonal is 1/(d + e − a).
            let mut next: Option<(usize, f64)> = None;
            for &node in nodes.iter().rev() {
                let i = node as usize;
                let a = work.diag[i];
                let e = match next {
                    None => a,
                    Some((_, e_next)) => a - work.prior_next[i].powi(2) / e_next,
                };
                var[i] = 1.0 / (work.pivot[i] + e - a);
                next = Some((i, e));
            }
        }
        var
    }
}

fn dot(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(x, y)| x * y).sum()
}
