//! What Wayland presentation feedback costs the main thread per frame, against a real
//! compositor with no renderer beside it: the window's watch on a surface of the
//! benchmark's own, showing a shared-memory image each refresh, paced by frame callbacks as
//! FIFO paces the window. Timed, as the window's exit summary times it: asking for feedback
//! before the commit, noting the present, and handing the answers that arrived to the live
//! loop (matched to their frames, scored against the model, settling the panes). Not
//! timed: drawing nothing, committing, and reading the socket (winit's loop reads it in the
//! window, for its own events too).
//!
//! Needs a compositor: `WAYLAND_DISPLAY` (headless Weston will do, see docs/window.md).
//! Without one it says so and measures nothing. Linux only (elsewhere it measures nothing).

#[cfg(target_os = "linux")]
mod wayland_bench {
    use std::hint::black_box;
    use std::io::Write as _;
    use std::os::fd::AsFd as _;
    use std::time::{Duration, Instant};

    use criterion::{Criterion, criterion_group};
    use timestep_lab::app::feedback::wayland::PresentationWatch;
    use timestep_lab::feedback::{ClockMap, FeedbackEvent, FeedbackSource};
    use timestep_lab::live::{LiveLoop, LiveSettings, Panes, RealStopwatch, Stopwatch as _};
    use timestep_lab::timestep::Strategy;
    use wayland_client::globals::{GlobalListContents, registry_queue_init};
    use wayland_client::protocol::{
        wl_buffer::WlBuffer, wl_callback::WlCallback, wl_compositor::WlCompositor,
        wl_registry::WlRegistry, wl_shm, wl_shm::WlShm, wl_shm_pool::WlShmPool,
        wl_surface::WlSurface,
    };
    use wayland_client::{Connection, Dispatch, EventQueue, QueueHandle, delegate_noop};
    use wayland_protocols::xdg::shell::client::{xdg_surface, xdg_toplevel, xdg_wm_base};

    /// The image's side, pixels.
    const SIDE: i32 = 64;

    /// The benchmark's own surface on the compositor, and what its events leave.
    struct Client {
        /// The benchmark's queue (the watch has its own).
        queue: EventQueue<State>,
        /// The surface shown.
        surface: WlSurface,
        /// Two images, shown in turn.
        buffers: [WlBuffer; 2],
        /// The one shown last.
        shown: usize,
        /// What the events left.
        state: State,
        /// Its toplevel role, kept while the surface shows.
        _toplevel: (xdg_surface::XdgSurface, xdg_toplevel::XdgToplevel),
    }

    /// What the benchmark's events leave.
    #[derive(Default)]
    struct State {
        /// The compositor configured the toplevel (it may be shown).
        configured: bool,
        /// The last frame callback fired (the compositor wants the next image).
        frame_done: bool,
    }

    impl Client {
        /// A 64 × 64 toplevel on the compositor `WAYLAND_DISPLAY` names, configured.
        fn connect(connection: &Connection) -> Result<Self, String> {
            let (globals, mut queue) = registry_queue_init::<State>(connection)
                .map_err(|error| format!("cannot list the compositor's globals: {error}"))?;
            let handle = queue.handle();
            let bind_error = |name: &str| format!("the compositor offers no {name}");
            let compositor: WlCompositor = globals
                .bind(&handle, 4..=6, ())
                .map_err(|_| bind_error("wl_compositor"))?;
            let shm: WlShm = globals
                .bind(&handle, 1..=1, ())
                .map_err(|_| bind_error("wl_shm"))?;
            let wm: xdg_wm_base::XdgWmBase = globals
                .bind(&handle, 1..=1, ())
                .map_err(|_| bind_error("xdg_wm_base"))?;
            let surface = compositor.create_surface(&handle, ());
            let xdg = wm.get_xdg_surface(&surface, &handle, ());
            let toplevel = xdg.get_toplevel(&handle, ());
            toplevel.set_title("timestep-lab feedback benchmark".into());
            surface.commit();
            let mut state = State::default();
            while !state.configured {
                queue
                    .blocking_dispatch(&mut state)
                    .map_err(|error| format!("the compositor broke off: {error}"))?;
            }
            let image_bytes = (SIDE * SIDE * 4) as usize;
            let mut file = tempfile()?;
            file.write_all(&vec![0x80; 2 * image_bytes])
                .map_err(|error| format!("cannot fill the shared image: {error}"))?;
            let pool = shm.create_pool(file.as_fd(), 2 * image_bytes as i32, &handle, ());
            let buffers = [0, 1].map(|i| {
                pool.create_buffer(
                    i * image_bytes as i32,
                    SIDE,
                    SIDE,
                    SIDE * 4,
                    wl_shm::Format::Xrgb8888,
                    &handle,
                    (),
                )
            });
            Ok(Self {
                queue,
                surface,
                buffers,
                shown: 0,
                state,
                _toplevel: (xdg, toplevel),
            })
        }

        /// Shows the other image on the next refresh, asking to hear when to draw again.
        fn commit(&mut self) {
            self.shown = 1 - self.shown;
            self.surface.attach(Some(&self.buffers[self.shown]), 0, 0);
            self.surface.damage_buffer(0, 0, SIDE, SIDE);
            self.surface.frame(&self.queue.handle(), ());
            self.state.frame_done = false;
            self.surface.commit();
        }

        /// Waits for the frame callback, reading the socket (and so the watch's events too).
        fn wait_for_frame(&mut self) -> Result<(), String> {
            while !self.state.frame_done {
                self.queue
                    .blocking_dispatch(&mut self.state)
                    .map_err(|error| format!("the compositor broke off: {error}"))?;
            }
            Ok(())
        }
    }

    /// An unlinked file in the temporary directory, for the shared images.
    fn tempfile() -> Result<std::fs::File, String> {
        let path = std::env::temp_dir().join(format!("timestep-lab-shm-{}", std::process::id()));
        let file = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
            .map_err(|error| format!("cannot make {}: {error}", path.display()))?;
        std::fs::remove_file(&path).map_err(|error| format!("cannot unlink it: {error}"))?;
        Ok(file)
    }

    /// A live loop of three panes, as `--compare interpolated,accumulator,display-time`, so
    /// settling each frame in every pane is timed too.
    fn three_panes() -> LiveLoop<RealStopwatch> {
        let settings = LiveSettings {
            compare: true,
            panes: Panes::new(&[
                Strategy::Interpolated,
                Strategy::Accumulator,
                Strategy::DisplayTime,
            ])
            .expect("three panes"),
            ..LiveSettings::default()
        };
        LiveLoop::new(RealStopwatch::default(), settings).expect("valid settings")
    }

    /// One frame as the window makes it, on the main thread: the loop's frame, then the
    /// present (a commit here) with the watch, if any, asking before it, noting it after, and
    /// handing the answers that arrived to the loop. Returns the main thread's time for the
    /// frame and the watch, committing and reading the socket left out; counts the answers.
    fn frame(
        live: &mut LiveLoop<RealStopwatch>,
        watch: Option<&mut PresentationWatch>,
        client: &mut Client,
        connection: &Connection,
        answers: &mut u64,
    ) -> Duration {
        let start = Instant::now();
        black_box(live.frame());
        let mut spent = start.elapsed();
        let start = Instant::now();
        let mut watch = watch;
        if let Some(watch) = watch.as_deref_mut() {
            watch.before_present();
        }
        spent += start.elapsed();
        client.commit();
        connection.flush().expect("the compositor broke off");
        let start = Instant::now();
        let numbers = live.record_present(0);
        if let Some(watch) = watch.as_deref_mut() {
            watch.presented(numbers);
        }
        spent += start.elapsed();
        client.wait_for_frame().expect("the compositor broke off");
        let start = Instant::now();
        if let Some(watch) = watch {
            watch
                .poll(|feedback| {
                    *answers += 1;
                    black_box(live.feedback(FeedbackEvent::Answer(feedback)));
                })
                .expect("the compositor broke off");
        }
        spent + start.elapsed()
    }

    fn wayland_feedback(c: &mut Criterion) {
        let connection = match Connection::connect_to_env() {
            Ok(connection) => connection,
            Err(error) => {
                eprintln!(
                    "wayland_feedback: skipped, no Wayland compositor ({error}); run it under \
                 one, e.g. headless Weston with WAYLAND_DISPLAY set"
                );
                return;
            }
        };
        let setup = Client::connect(&connection).and_then(|client| {
            PresentationWatch::for_surface(&connection, client.surface.clone())
                .map(|watch| (client, watch))
        });
        let (mut client, mut watch) = match setup {
            Ok(setup) => setup,
            Err(error) => {
                eprintln!("wayland_feedback: skipped: {error}");
                return;
            }
        };
        let mut group = c.benchmark_group("wayland_frame_three_panes");
        // The same frames, presents and waits with the screen measured and modeled: the
        // difference is what the feedback adds to the main thread.
        let mut live = three_panes();
        let now = rustix::time::clock_gettime(watch.clock());
        let platform = i128::from(now.tv_sec) * 1_000_000_000 + i128::from(now.tv_nsec);
        live.feedback(FeedbackEvent::Watching(
            FeedbackSource::WaylandPresentation,
            ClockMap::new(platform, live.stopwatch().now()),
        ));
        let (mut answers, mut presents) = (0u64, 0u64);
        group.bench_function("measured", |b| {
            b.iter_custom(|iters| {
                presents += iters;
                (0..iters)
                    .map(|_| {
                        frame(
                            &mut live,
                            Some(&mut watch),
                            &mut client,
                            &connection,
                            &mut answers,
                        )
                    })
                    .sum()
            })
        });
        let measured = live
            .screen()
            .measured()
            .map_or(0, |measured| measured.counts().shown);
        let mut modeled = three_panes();
        group.bench_function("modeled", |b| {
            b.iter_custom(|iters| {
                (0..iters)
                    .map(|_| frame(&mut modeled, None, &mut client, &connection, &mut 0))
                    .sum()
            })
        });
        group.finish();
        eprintln!(
            "wayland_frame_three_panes/measured: {answers} answers to {presents} presents, \
         {measured} shown"
        );
        assert!(
            answers * 10 >= presents * 9,
            "the compositor answered {answers} of {presents} feedback requests"
        );
    }

    impl Dispatch<WlRegistry, GlobalListContents> for State {
        fn event(
            _: &mut Self,
            _: &WlRegistry,
            _: <WlRegistry as wayland_client::Proxy>::Event,
            _: &GlobalListContents,
            _: &Connection,
            _: &QueueHandle<Self>,
        ) {
        }
    }

    impl Dispatch<xdg_wm_base::XdgWmBase, ()> for State {
        fn event(
            _: &mut Self,
            wm: &xdg_wm_base::XdgWmBase,
            event: xdg_wm_base::Event,
            _: &(),
            _: &Connection,
            _: &QueueHandle<Self>,
        ) {
            if let xdg_wm_base::Event::Ping { serial } = event {
                wm.pong(serial);
            }
        }
    }

    impl Dispatch<xdg_surface::XdgSurface, ()> for State {
        fn event(
            state: &mut Self,
            surface: &xdg_surface::XdgSurface,
            event: xdg_surface::Event,
            _: &(),
            _: &Connection,
            _: &QueueHandle<Self>,
        ) {
            if let xdg_surface::Event::Configure { serial } = event {
                surface.ack_configure(serial);
                state.configured = true;
            }
        }
    }

    impl Dispatch<WlCallback, ()> for State {
        fn event(
            state: &mut Self,
            _: &WlCallback,
            _: <WlCallback as wayland_client::Proxy>::Event,
            _: &(),
            _: &Connection,
            _: &QueueHandle<Self>,
        ) {
            state.frame_done = true;
        }
    }

    delegate_noop!(State: ignore WlCompositor);
    delegate_noop!(State: ignore WlSurface);
    delegate_noop!(State: ignore WlShm);
    delegate_noop!(State: ignore WlShmPool);
    delegate_noop!(State: ignore WlBuffer);
    delegate_noop!(State: ignore xdg_toplevel::XdgToplevel);

    criterion_group! {
        name = benches;
        // Each frame waits a refresh: twenty samples are a few hundred frames.
        config = Criterion::default().sample_size(20).measurement_time(Duration::from_secs(6));
        targets = wayland_feedback
    }

    pub fn main() {
        benches();
        Criterion::default().configure_from_args().final_summary();
    }
}

fn main() {
    #[cfg(target_os = "linux")]
    wayland_bench::main();
}
