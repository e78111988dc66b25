// Shared by every scene shader: the per-pane camera and the vertex/instance inputs.

struct Camera {
    clip_from_world: mat4x4<f32>,
    // xyz: camera position, world space.
    eye_position: vec4<f32>,
    // xyz: unit direction towards the light, world space.
    light_direction: vec4<f32>,
    // rgb: the clear colour (linear), for fading distant grid lines into it.
    background: vec4<f32>,
};

@group(0) @binding(0) var<uniform> camera: Camera;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
};

struct InstanceIn {
    @location(2) world_from_object_0: vec4<f32>,
    @location(3) world_from_object_1: vec4<f32>,
    @location(4) world_from_object_2: vec4<f32>,
    @location(5) world_from_object_3: vec4<f32>,
    @location(6) normal_from_object_0: vec4<f32>,
    @location(7) normal_from_object_1: vec4<f32>,
    @location(8) normal_from_object_2: vec4<f32>,
    // rgb: base colour (linear); a: opacity.
    @location(9) color: vec4<f32>,
    // rgb: second colour of the banded material.
    @location(10) color_alt: vec4<f32>,
    // Meaning depends on the pipeline: see the Rust `Instance` docs.
    @location(11) params: vec4<f32>,
};

fn world_from_object(instance: InstanceIn) -> mat4x4<f32> {
    return mat4x4<f32>(
        instance.world_from_object_0,
        instance.world_from_object_1,
        instance.world_from_object_2,
        instance.world_from_object_3,
    );
}

fn normal_from_object(instance: InstanceIn) -> mat3x3<f32> {
    return mat3x3<f32>(
        instance.normal_from_object_0.xyz,
        instance.normal_from_object_1.xyz,
        instance.normal_from_object_2.xyz,
    );
}
