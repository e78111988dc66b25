//! The person's hands on the scene in the window: movement keys (WASD or the arrows) and
//! dragging the mouse over the scene, sent to the live loop as inputs, so that each press
//! is sent once and each release matches a press.

use winit::event::{ElementState, MouseButton, WindowEvent};
use winit::keyboard::{KeyCode, PhysicalKey};

use crate::input::{InputKind, KeySet, MoveKey};
use crate::live::{LiveLoop, Stopwatch};

/// Radians the view turns per pixel the mouse moves: a 1000-pixel drag turns about 230°.
const LOOK_RAD_PER_PIXEL: f64 = 0.004;

/// What the person is doing with the keyboard and mouse over the scene.
#[derive(Debug, Default)]
pub struct Hands {
    /// Movement keys sent as pressed and not yet released.
    held: KeySet,
    /// The cursor, physical pixels.
    cursor: Option<(f64, f64)>,
    /// Whether the left button went down over the scene and is still down.
    dragging: bool,
    /// The rectangle of the scene (points) and the pixels per point, as last laid out.
    scene: Option<(egui::Rect, f32)>,
    /// Movement key presses and releases sent to the loop.
    key_inputs: u64,
    /// Mouse turns sent to the loop.
    look_inputs: u64,
}

/// The movement key a keyboard key walks with: WASD or the arrows.
fn move_key(key: PhysicalKey) -> Option<MoveKey> {
    match key {
        PhysicalKey::Code(KeyCode::KeyW | KeyCode::ArrowUp) => Some(MoveKey::Forward),
        PhysicalKey::Code(KeyCode::KeyS | KeyCode::ArrowDown) => Some(MoveKey::Back),
        PhysicalKey::Code(KeyCode::KeyA | KeyCode::ArrowLeft) => Some(MoveKey::Left),
        PhysicalKey::Code(KeyCode::KeyD | KeyCode::ArrowRight) => Some(MoveKey::Right),
        _ => None,
    }
}

impl Hands {
    /// Follows `event` (after egui has seen it) when it is the keyboard, the mouse or the
    /// window's focus, sending `live` what the person did; other events are left alone.
    pub fn window_event<S: Stopwatch>(
        &mut self,
        event: &WindowEvent,
        live: &mut LiveLoop<S>,
        egui_ctx: &egui::Context,
    ) {
        match event {
            WindowEvent::KeyboardInput { event, .. } if !event.repeat => {
                let typing = egui_ctx.egui_wants_keyboard_input();
                if let Some(key) = move_key(event.physical_key) {
                    let down = event.state == ElementState::Pressed;
                    self.key(live, key, down && !typing);
                }
            }
            WindowEvent::Focused(false) => {
                // Keys released while the window is away never reach it: let go of all.
                for key in MoveKey::ALL {
                    self.key(live, key, false);
                }
                self.dragging = false;
            }
            WindowEvent::MouseInput {
                state,
                button: MouseButton::Left,
                ..
            } => {
                // Over the scene and no window of the panel's over it (the pane labels,
                // a banner, a drop-down): the panels and the scene share the background.
                let over_scene =
                    self.cursor
                        .zip(self.scene)
                        .is_some_and(|((x, y), (rect, per_point))| {
                            let point = egui::pos2(x as f32 / per_point, y as f32 / per_point);
                            rect.contains(point)
                                && egui_ctx
                                    .layer_id_at(point)
                                    .is_none_or(|layer| layer.order == egui::Order::Background)
                        });
                self.dragging = *state == ElementState::Pressed
                    && over_scene
                    && !egui_ctx.egui_is_using_pointer();
            }
            WindowEvent::CursorMoved { position, .. } => {
                let now = (position.x, position.y);
                if self.dragging
                    && let Some((x, y)) = self.cursor
                {
                    let (dx, dy) = (now.0 - x, now.1 - y);
                    if dx != 0.0 || dy != 0.0 {
                        // Only new settings can be refused.
                        let _ = live.request(live.input_now(InputKind::Look {
                            yaw_rad: dx * LOOK_RAD_PER_PIXEL,
                            pitch_rad: -dy * LOOK_RAD_PER_PIXEL,
                        }));
                        self.look_inputs += 1;
                    }
                }
                self.cursor = Some(now);
            }
            WindowEvent::CursorLeft { .. } => self.cursor = None,
            _ => {}
        }
    }

    /// A movement key went down (`down`) or up: the loop gets the press once and the
    /// release only for a key it got the press of.
    fn key<S: Stopwatch>(&mut self, live: &mut LiveLoop<S>, key: MoveKey, down: bool) {
        if down == self.held.contains(key) {
            return;
        }
        self.held = self.held.with(key, down);
        // Only new settings can be refused.
        let _ = live.request(live.input_now(if down {
            InputKind::Press(key)
        } else {
            InputKind::Release(key)
        }));
        self.key_inputs += 1;
    }

    /// Where the scene was laid out this frame: `rect` in points, at `pixels_per_point`.
    pub fn set_scene(&mut self, rect: egui::Rect, pixels_per_point: f32) {
        self.scene = Some((rect, pixels_per_point));
    }

    /// Movement key presses and releases sent to the loop.
    pub fn key_inputs(&self) -> u64 {
        self.key_inputs
    }

    /// Mouse turns sent to the loop.
    pub fn look_inputs(&self) -> u64 {
        self.look_inputs
    }
}
