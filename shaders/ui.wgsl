// The panel's triangles as egui tessellates them: positions in points, a coordinate in one of
// egui's textures (the font atlas, or an image) and a premultiplied sRGB-encoded colour.
// Standalone: not appended to common.wgsl.
//
// Kept free of branches: a CPU rasterizer (lavapipe) runs both sides of a branch for every
// pixel, so each fragment does one texture read and, on an sRGB target, one decode.

struct Screen {
    // Size of the target in egui points.
    size_points: vec2<f32>,
    padding: vec2<f32>,
    // The panels' fill, as the target stores it (linear for an sRGB target).
    backdrop: vec4<f32>,
};

@group(0) @binding(0) var<uniform> screen: Screen;

// egui-wgpu's texture bind group: the texture, its sampler (binding 2, a flag for egui's own
// test shader, is not read).
@group(1) @binding(0) var ui_texture: texture_2d<f32>;
@group(1) @binding(1) var ui_sampler: sampler;

struct UiOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) uv: vec2<f32>,
    // Premultiplied, sRGB-encoded.
    @location(1) color: vec4<f32>,
};

@vertex
fn vs_ui(
    @location(0) position: vec2<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) color: u32,
) -> UiOut {
    var out: UiOut;
    let ndc = position / screen.size_points * vec2<f32>(2.0, -2.0) + vec2<f32>(-1.0, 1.0);
    out.clip_position = vec4<f32>(ndc, 0.0, 1.0);
    out.uv = uv;
    // egui's Color32 is the bytes r, g, b, a.
    out.color = unpack4x8unorm(color);
    return out;
}

// For a target that stores what it is given: egui blends in sRGB-encoded space, as it is
// designed to.
@fragment
fn fs_ui_encoded(in: UiOut) -> @location(0) vec4<f32> {
    return in.color * textureSample(ui_texture, ui_sampler, in.uv);
}

// For an sRGB target, which encodes on store: hand it linear colour.
@fragment
fn fs_ui_linear(in: UiOut) -> @location(0) vec4<f32> {
    let encoded = in.color * textureSample(ui_texture, ui_sampler, in.uv);
    let rgb = encoded.rgb;
    let low = rgb / 12.92;
    let high = pow((rgb + 0.055) / 1.055, vec3<f32>(2.4));
    return vec4<f32>(select(high, low, rgb <= vec3<f32>(0.04045)), encoded.a);
}

// The panels' backdrop: one triangle over the whole target, cut to each region by the
// scissor, filled flat and opaque (no texture, no blending).
@vertex
fn vs_backdrop(@builtin(vertex_index) index: u32) -> @builtin(position) vec4<f32> {
    let corner = vec2<f32>(f32((index << 1u) & 2u), f32(index & 2u));
    return vec4<f32>(corner * 2.0 - 1.0, 0.0, 1.0);
}

@fragment
fn fs_backdrop() -> @location(0) vec4<f32> {
    return screen.backdrop;
}
