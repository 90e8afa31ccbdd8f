//! One backend (a parry crate, a scalar and a dimension) over the corpus: the shapes of both
//! libraries built once, the untimed check of their answers, the timing, and the plain
//! call loop for callgrind. The `backend!` macro expands it per parry crate.

use crate::corpus::{Case, Scalar};

/// The timed queries. `ContactWithin` is ours `contact_within` at prediction 0 against
/// parry's `contact` at prediction 0 (the same question: the contact, unless proven apart);
/// `Contact` is ours `contact` (the signed distance, also of apart pairs) against the same.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Query {
    Distance,
    Intersects,
    Contact,
    ContactWithin,
}

impl Query {
    pub const ALL: [Self; 4] = [
        Self::Distance,
        Self::Intersects,
        Self::Contact,
        Self::ContactWithin,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Self::Distance => "distance",
            Self::Intersects => "intersects",
            Self::Contact => "contact",
            Self::ContactWithin => "contact_within",
        }
    }
}

/// The library whose calls `--callgrind` repeats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lib {
    Ours,
    Parry,
}

/// What a backend run is asked to do.
pub struct Plan<'a> {
    pub queries: &'a [Query],
    pub batches: usize,
    /// `Some((lib, reps))`: no timing, `reps` calls per case of `lib` only.
    pub callgrind: Option<(Lib, usize)>,
}

/// One library's answers on one case (parry's `contact` is `None` when it reports no
/// contact: apart beyond the prediction distance 0).
pub struct Answers {
    pub intersects: Result<bool, String>,
    pub distance: Result<f64, String>,
    pub contact: Result<Option<f64>, String>,
    /// `contact_within` at prediction 0: `None` when proven apart (parry: its `contact`).
    pub contact_within: Result<Option<f64>, String>,
}

/// One library's clear wrong answers on a backend (the corpus README's definitions, in the
/// backend's scalar).
#[derive(Default)]
pub struct Tally {
    pub cases: usize,
    /// Shapes the library's constructor rejected (not timed).
    pub not_built: usize,
    /// Cases with an `Err`, a NaN or a panic in any query.
    pub failures: usize,
    pub verdict: usize,
    pub sign: usize,
    pub distance: usize,
    pub depth: usize,
    /// Up to five failures or rejections, with the case id.
    pub examples: Vec<String>,
}

impl Tally {
    fn example(&mut self, s: String) {
        if self.examples.len() < 5 {
            self.examples.push(s);
        }
    }

    /// A constructor rejected a shape of `case`.
    pub fn rejected(&mut self, case: &Case, why: &str) {
        self.cases += 1;
        self.not_built += 1;
        self.example(format!("{}: not built: {why}", case.id));
    }

    /// Counts what `ans` gets wrong on `case`.
    pub fn add(&mut self, case: &Case, scalar: Scalar, ans: &Answers) {
        self.cases += 1;
        let errors: Vec<&String> = [
            ans.intersects.as_ref().err(),
            ans.distance.as_ref().err(),
            ans.contact.as_ref().err(),
            ans.contact_within.as_ref().err(),
        ]
        .into_iter()
        .flatten()
        .collect();
        let nan = matches!(ans.distance, Ok(d) if !d.is_finite())
            || matches!(ans.contact, Ok(Some(s)) if !s.is_finite());
        // `contact_within` must be `contact`'s answer, or apart where `contact` is apart.
        let differ = match (&ans.contact, &ans.contact_within) {
            (Ok(c), Ok(w)) => match (c, w) {
                (Some(s), None) => !(*s > 0.0),
                (c, w) => c != w,
            },
            _ => false,
        };
        // A case counts once, with its first reason.
        if !errors.is_empty() || nan || differ {
            self.failures += 1;
            let why = match errors.first() {
                Some(e) => (*e).clone(),
                None if nan => "NaN or infinite output".to_string(),
                None => format!(
                    "contact_within {:?} against contact {:?}",
                    ans.contact_within, ans.contact
                ),
            };
            self.example(format!("{}: {why}", case.id));
        }
        let (sd, clear, tol) = (
            case.signed_distance(),
            scalar.is_clear(case),
            scalar.error_threshold(case),
        );
        if let Ok(hit) = ans.intersects {
            self.verdict += usize::from(clear && hit != case.expect.intersecting);
        }
        if let Ok(d) = ans.distance {
            self.distance += usize::from(!((d - case.expect.distance).abs() <= tol));
        }
        if let Ok(c) = ans.contact {
            let wrong = match (case.expect.intersecting, c) {
                (true, None) => true,
                (true, Some(s)) => !(s < 0.0),
                (false, None) => false,
                (false, Some(s)) => !(s > 0.0),
            };
            self.sign += usize::from(clear && wrong);
            // No contact reported: apart, by an unknown distance (no error when apart).
            let err = c.map_or(
                if case.expect.intersecting {
                    sd.abs()
                } else {
                    0.0
                },
                |s| (s - sd).abs(),
            );
            self.depth += usize::from(!(err <= tol));
        }
    }
}

/// A guarded query's answer: its value, or the `Err` or the panic as a message.
pub fn flat<X, E: std::fmt::Debug>(r: Result<Result<X, E>, String>) -> Result<X, String> {
    match r {
        Ok(Ok(x)) => Ok(x),
        Ok(Err(e)) => Err(format!("Err({e:?})")),
        Err(p) => Err(format!("panicked: {p}")),
    }
}

/// One case's times per call, in ns, per query (`None`: not selected).
pub struct Timing {
    pub id: String,
    pub category: String,
    /// The shape kinds, `a-b` (e.g. `polytope-cuboid`).
    pub kinds: String,
    pub ours: [Option<f64>; Query::ALL.len()],
    pub parry: [Option<f64>; Query::ALL.len()],
}

/// Everything one backend measured.
pub struct Report {
    pub label: &'static str,
    pub scalar: Scalar,
    pub timings: Vec<Timing>,
    pub ours: Tally,
    pub parry: Tally,
    /// Calls made in callgrind mode.
    pub calls: usize,
}

/// Expands one backend: module `$m` on parry crate `$parry` in scalar `$T` (`$scalar`) and
/// dimension `$D`, parry's polytopes of type `$hull`.
macro_rules! backend {
    ($m:ident, $parry:ident, $T:ty, $scalar:expr, $D:tt, $hull:ident, $label:literal) => {
        pub mod $m {
            use crate::backend::{Answers, Lib, Plan, Query, Report, Tally, Timing, flat};
            use crate::corpus::{Case, Local, PairQuery, Placed, Shape, dispatch};
            use crate::runner::guarded;
            use crate::{PoseOf, measure};
            use convex_proximity::{Tolerances, query, shape::SupportMap};
            use std::hint::black_box;
            #[allow(unused_imports)]
            use $parry::math::{Pose, Rotation, Vector};
            use $parry::{query as pq, shape as ps};

            type T = $T;
            const D: usize = $D;
            pub const LABEL: &str = $label;
            crate::common::pose_conversions!($D);

            /// parry's shape of `p` (local frame), or why not.
            fn parry_shape(p: &Placed<D>) -> Result<Box<dyn ps::Shape>, String> {
                let built = guarded(|| -> Option<Box<dyn ps::Shape>> {
                    Some(match &p.local {
                        Local::Polytope(pts) => {
                            let pts: Vec<Vector> =
                                pts.iter().map(|x| vector(x.as_slice())).collect();
                            Box::new(ps::$hull::from_convex_hull(&pts)?)
                        }
                        Local::Ball(r) => Box::new(ps::Ball::new(*r as T)),
                        Local::Capsule([a, b], r) => Box::new(ps::Capsule::new(
                            vector(a.as_slice()),
                            vector(b.as_slice()),
                            *r as T,
                        )),
                        Local::Cuboid(h) => Box::new(ps::Cuboid::new(vector(h.as_slice()))),
                    })
                });
                match built {
                    Ok(Some(s)) => Ok(s),
                    Ok(None) => Err(
                        concat!(stringify!($hull), "::from_convex_hull returned None").to_string(),
                    ),
                    Err(panic) => Err(format!("panicked: {panic}")),
                }
            }

            /// Both libraries' inputs for one case.
            struct Pair {
                ours: (Shape<T, D>, Shape<T, D>),
                iso: (Iso, Iso),
                parry: Option<(Box<dyn ps::Shape>, Box<dyn ps::Shape>)>,
                pose: (Pose, Pose),
            }

            fn pair(case: &Case, ours: &mut Tally, parry: &mut Tally) -> Option<Pair> {
                let (pa, pb) = match case.placed::<D>() {
                    Ok(p) => p,
                    Err(e) => {
                        ours.rejected(case, &e);
                        parry.rejected(case, &e);
                        return None;
                    }
                };
                let (fa, fb) = (PoseF::pose_of(&pa), PoseF::pose_of(&pb));
                let shapes = pa.shape::<T>().and_then(|a| Ok((a, pb.shape::<T>()?)));
                let shapes = match shapes {
                    Ok(s) => s,
                    Err(e) => {
                        ours.rejected(case, &e.to_string());
                        return None;
                    }
                };
                let theirs = parry_shape(&pa).and_then(|a| Ok((a, parry_shape(&pb)?)));
                if let Err(e) = &theirs {
                    parry.rejected(case, e);
                }
                Some(Pair {
                    ours: shapes,
                    iso: (iso(&fa), iso(&fb)),
                    parry: theirs.ok(),
                    pose: (pose(&fa), pose(&fb)),
                })
            }

            /// Our answers (every call guarded).
            struct Check<'a>(&'a (Iso, Iso), &'a Tolerances<T>);
            impl PairQuery<T, D> for Check<'_> {
                type Output = Answers;
                fn run<A: SupportMap<T, D>, B: SupportMap<T, D>>(
                    &mut self,
                    a: &A,
                    b: &B,
                ) -> Answers {
                    let ((ia, ib), tol) = (self.0, self.1);
                    Answers {
                        intersects: flat(guarded(|| query::intersects(ia, a, ib, b, tol))),
                        distance: flat(guarded(|| {
                            query::distance(ia, a, ib, b, tol).map(|d| f64::from(d.distance))
                        })),
                        contact: flat(guarded(|| {
                            query::contact(ia, a, ib, b, tol).map(|c| Some(f64::from(c.separation)))
                        })),
                        contact_within: flat(guarded(|| {
                            query::contact_within(ia, a, ib, b, 0.0, tol)
                                .map(|r| r.contact().map(|c| f64::from(c.separation)))
                        })),
                    }
                }
            }

            fn parry_answers(
                (sa, sb): &(Box<dyn ps::Shape>, Box<dyn ps::Shape>),
                (pa, pb): &(Pose, Pose),
            ) -> Answers {
                let (sa, sb) = (&**sa, &**sb);
                let contact = flat(guarded(|| {
                    pq::contact(pa, sa, pb, sb, 0.0).map(|c| c.map(|c| f64::from(c.dist)))
                }));
                Answers {
                    intersects: flat(guarded(|| {
                        pq::intersection_test(pa, sa, pb, sb).map(|r| r.intersecting)
                    })),
                    distance: flat(guarded(|| {
                        pq::distance(pa, sa, pb, sb).map(|d| f64::from(d.distance))
                    })),
                    contact_within: contact.clone(),
                    contact,
                }
            }

            /// Our calls of one query: timed (`reps == 0`) or repeated `reps` times.
            struct Ours<'a> {
                iso: &'a (Iso, Iso),
                tol: &'a Tolerances<T>,
                query: Query,
                batches: usize,
                reps: usize,
            }
            impl PairQuery<T, D> for Ours<'_> {
                type Output = f64;
                fn run<A: SupportMap<T, D>, B: SupportMap<T, D>>(&mut self, a: &A, b: &B) -> f64 {
                    let ((ia, ib), tol) = (self.iso, self.tol);
                    let (batches, reps) = (self.batches, self.reps);
                    match self.query {
                        Query::Distance => measure(batches, reps, || {
                            black_box(
                                query::distance(black_box(ia), a, black_box(ib), b, tol).ok(),
                            );
                        }),
                        Query::Intersects => measure(batches, reps, || {
                            black_box(
                                query::intersects(black_box(ia), a, black_box(ib), b, tol).ok(),
                            );
                        }),
                        Query::Contact => measure(batches, reps, || {
                            black_box(query::contact(black_box(ia), a, black_box(ib), b, tol).ok());
                        }),
                        Query::ContactWithin => measure(batches, reps, || {
                            let (ia, ib) = (black_box(ia), black_box(ib));
                            black_box(query::contact_within(ia, a, ib, b, 0.0, tol).ok());
                        }),
                    }
                }
            }

            /// parry's calls of one query: timed (`reps == 0`) or repeated `reps` times.
            fn theirs(pair: &Pair, query: Query, batches: usize, reps: usize) -> f64 {
                let Some((sa, sb)) = &pair.parry else {
                    return f64::NAN;
                };
                let ((pa, pb), sa, sb) = (&pair.pose, &**sa, &**sb);
                match query {
                    Query::Distance => measure(batches, reps, || {
                        black_box(pq::distance(black_box(pa), sa, black_box(pb), sb).ok());
                    }),
                    Query::Intersects => measure(batches, reps, || {
                        black_box(pq::intersection_test(black_box(pa), sa, black_box(pb), sb).ok());
                    }),
                    Query::Contact | Query::ContactWithin => measure(batches, reps, || {
                        black_box(pq::contact(black_box(pa), sa, black_box(pb), sb, 0.0).ok());
                    }),
                }
            }

            /// Checks and times (or, for callgrind, repeats) every case of `cases`.
            pub fn run(cases: &[Case], plan: &Plan) -> Report {
                let tol = Tolerances::<T>::default();
                let mut report = Report {
                    label: LABEL,
                    scalar: $scalar,
                    timings: Vec::new(),
                    ours: Tally::default(),
                    parry: Tally::default(),
                    calls: 0,
                };
                for (i, case) in cases.iter().enumerate() {
                    let Some(p) = pair(case, &mut report.ours, &mut report.parry) else {
                        continue;
                    };
                    let (a, b) = (&p.ours.0, &p.ours.1);
                    if plan.callgrind.is_none() {
                        report
                            .ours
                            .add(case, $scalar, &dispatch(a, b, &mut Check(&p.iso, &tol)));
                        if let Some(s) = &p.parry {
                            report.parry.add(case, $scalar, &parry_answers(s, &p.pose));
                        }
                    }
                    // Only pairs both libraries built are timed.
                    if p.parry.is_none() {
                        continue;
                    }
                    let mut t = Timing {
                        id: case.id.clone(),
                        category: case.category.clone(),
                        kinds: format!("{}-{}", case.a.kind(), case.b.kind()),
                        ours: [None; Query::ALL.len()],
                        parry: [None; Query::ALL.len()],
                    };
                    for &q in plan.queries {
                        let k = Query::ALL.iter().position(|x| *x == q).unwrap_or(0);
                        let mut ours = Ours {
                            iso: &p.iso,
                            tol: &tol,
                            query: q,
                            batches: plan.batches,
                            reps: 0,
                        };
                        match plan.callgrind {
                            Some((Lib::Ours, reps)) => {
                                ours.reps = reps;
                                dispatch(a, b, &mut ours);
                                report.calls += reps;
                            }
                            Some((Lib::Parry, reps)) => {
                                theirs(&p, q, 0, reps);
                                report.calls += reps;
                            }
                            // Alternate which library goes first, per case.
                            None if i % 2 == 0 => {
                                t.ours[k] = Some(dispatch(a, b, &mut ours));
                                t.parry[k] = Some(theirs(&p, q, plan.batches, 0));
                            }
                            None => {
                                t.parry[k] = Some(theirs(&p, q, plan.batches, 0));
                                t.ours[k] = Some(dispatch(a, b, &mut ours));
                            }
                        }
                    }
                    report.timings.push(t);
                }
                report
            }
        }
    };
}
pub(crate) use backend;
