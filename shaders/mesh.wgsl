// Lit meshes: plain and banded spheres, cylinders, the helical spring and the ghost.
// Appended to common.wgsl.

const PI: f32 = 3.14159265;
const TAU: f32 = 6.28318531;

struct VertexOut {
    @builtin(position) clip_position: vec4<f32>,
    @location(0) world_position: vec3<f32>,
    @location(1) world_normal: vec3<f32>,
    // The normal before any transform: the banded material reads it so stripes turn with
    // the object.
    @location(2) object_normal: vec3<f32>,
    @location(3) color: vec4<f32>,
    @location(4) color_alt: vec3<f32>,
    @location(5) @interpolate(flat) material: u32,
};

@vertex
fn vs_mesh(vertex: VertexIn, instance: InstanceIn) -> VertexOut {
    let world_position = world_from_object(instance) * vec4<f32>(vertex.position, 1.0);
    var out: VertexOut;
    out.clip_position = camera.clip_from_world * world_position;
    out.world_position = world_position.xyz;
    out.world_normal = normal_from_object(instance) * vertex.normal;
    out.object_normal = vertex.normal;
    out.color = instance.color;
    out.color_alt = instance.color_alt.rgb;
    out.material = u32(instance.params.x);
    return out;
}

// The spring: vertex.position holds (t along the coil in 0..1, angle around the wire, 0).
// The helix runs down the object's -y axis from the anchor; params hold
// (turns, length_m, coil_radius_m, wire_radius_m). Computing it here keeps the wire round
// whatever the spring's length, with exact normals, and one shared mesh for every pane.
@vertex
fn vs_coil(vertex: VertexIn, instance: InstanceIn) -> VertexOut {
    let turns = instance.params.x;
    let length_m = instance.params.y;
    let coil_radius = instance.params.z;
    let wire_radius = instance.params.w;
    let t = vertex.position.x;
    let phi = vertex.position.y;
    let theta = TAU * turns * t;
    let center = vec3<f32>(coil_radius * cos(theta), -length_m * t, coil_radius * sin(theta));
    let tangent = normalize(vec3<f32>(
        -coil_radius * TAU * turns * sin(theta),
        -length_m,
        coil_radius * TAU * turns * cos(theta),
    ));
    // The principal normal of a helix points at its axis.
    let inward = vec3<f32>(-cos(theta), 0.0, -sin(theta));
    let binormal = normalize(cross(tangent, inward));
    let normal = cos(phi) * inward + sin(phi) * binormal;
    let object_position = center + wire_radius * normal;

    let world_position = world_from_object(instance) * vec4<f32>(object_position, 1.0);
    var out: VertexOut;
    out.clip_position = camera.clip_from_world * world_position;
    out.world_position = world_position.xyz;
    out.world_normal = normal_from_object(instance) * normal;
    out.object_normal = normal;
    out.color = instance.color;
    out.color_alt = instance.color_alt.rgb;
    out.material = 0u;
    return out;
}

// A vertex of a trail's mesh (the Rust `TrailVertex`): already in world space, in its
// dot's colour. The dots are copied into one mesh on the CPU rather than drawn as
// instances: a CPU rasterizer may pay for each instance as for a draw.
struct TrailIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) color: vec4<f32>,
};

@vertex
fn vs_trail(vertex: TrailIn) -> VertexOut {
    var out: VertexOut;
    out.clip_position = camera.clip_from_world * vec4<f32>(vertex.position, 1.0);
    out.world_position = vertex.position;
    out.world_normal = vertex.normal;
    out.object_normal = vertex.normal;
    out.color = vertex.color;
    out.color_alt = vertex.color.rgb;
    out.material = 0u;
    return out;
}

// Base colour of the banded material: longitude sectors alternate the two colours, and a
// dark equatorial band circles the object's y axis. Edges are smoothed over one pixel.
fn banded(base: vec3<f32>, alt: vec3<f32>, n: vec3<f32>) -> vec3<f32> {
    let sectors = sin(atan2(n.z, n.x) * 4.0);
    let sector_width = max(fwidth(sectors), 1e-4);
    var color = mix(base, alt, smoothstep(-sector_width, sector_width, sectors));
    let latitude = abs(n.y);
    let band_width = max(fwidth(latitude), 1e-4);
    let in_band = 1.0 - smoothstep(0.14 - band_width, 0.14 + band_width, latitude);
    color = mix(color, base * 0.22, in_band);
    return color;
}

fn shade(base: vec3<f32>, world_position: vec3<f32>, world_normal: vec3<f32>) -> vec3<f32> {
    let n = normalize(world_normal);
    let l = camera.light_direction.xyz;
    let v = normalize(camera.eye_position.xyz - world_position);
    let h = normalize(l + v);
    let lambert = max(dot(n, l), 0.0);
    // Sky above, warm ground bounce below.
    let ambient = mix(vec3<f32>(0.07, 0.06, 0.05), vec3<f32>(0.20, 0.22, 0.27), n.y * 0.5 + 0.5);
    let specular = select(0.0, pow(max(dot(n, h), 0.0), 40.0) * 0.3, lambert > 0.0);
    return base * (ambient + lambert * vec3<f32>(0.95, 0.92, 0.86)) + vec3<f32>(specular);
}

@fragment
fn fs_lit(in: VertexOut) -> @location(0) vec4<f32> {
    // Derivatives (fwidth) need uniform control flow: compute the bands for every
    // fragment, then choose.
    let bands = banded(in.color.rgb, in.color_alt, normalize(in.object_normal));
    let base = select(in.color.rgb, bands, in.material == 1u);
    return vec4<f32>(shade(base, in.world_position, in.world_normal), 1.0);
}

// The ghost: a faint shell, more opaque towards its silhouette so its outline reads.
@fragment
fn fs_ghost(in: VertexOut) -> @location(0) vec4<f32> {
    let n = normalize(in.world_normal);
    let v = normalize(camera.eye_position.xyz - in.world_position);
    let rim = 1.0 - abs(dot(n, v));
    let alpha = clamp(in.color.a + 0.45 * rim * rim, 0.0, 1.0);
    return vec4<f32>(in.color.rgb, alpha);
}
