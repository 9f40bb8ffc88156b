/**
 * MyBatis-Plus's {@code IdType.ASSIGN_ID} and {@code IdType.ASSIGN_UUID} from idgen: {@link
 * dev.idgen.mybatisplus.IdgenIdentifierGenerator}, auto-configured by {@link
 * dev.idgen.mybatisplus.IdgenMybatisPlusAutoConfiguration} when MyBatis-Plus is on the class path.
 */
package dev.idgen.mybatisplus;
